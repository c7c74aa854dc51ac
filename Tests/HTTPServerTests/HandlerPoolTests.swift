import Foundation
@testable import HTTPServer
import TestSupport
import XCTest

/// The handler threads shared among clients: one client's slow requests
/// never take every thread (issue 29).
final class HandlerPoolTests: XCTestCase {
    func testOneAddressesSlowRequestsLeaveAThreadForAnotherAddress() throws {
        let gate = Gate()
        let server = try TestServer(router: slowAndFastRouter(gate)) { $0.handlerThreadCount = 4 }
        let slow = try (0..<8).map { _ in try server.connect() }
        for connection in slow { _ = connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertTrue(waitUntil { gate.waiting == 3 }, "all threads but one run the first client's requests")

        let other = try RawHTTPConnection(host: "127.0.0.1", port: server.port, source: "127.0.0.2")
        _ = other.send("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: other.readToEnd(timeout: 10), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), "another client is served meanwhile: \(answer.prefix(40))")
        XCTAssertTrue(answer.hasSuffix("fast"))
        XCTAssertEqual(gate.waiting, 3, "the first client's other requests still wait their turn")

        gate.open()
        for connection in slow {
            let answer = connection.read(until: "slow", timeout: 10).map { String(decoding: $0, as: UTF8.self) }
            XCTAssertEqual(answer?.hasPrefix("HTTP/1.1 200"), true, "each slow request is answered once its turn comes")
        }
        XCTAssertEqual(gate.waiting, 8)
    }

    func testClientsAreToldApartByTheAppsIdentityWhenTheyShareAnAddress() throws {
        let gate = Gate()
        let server = try TestServer(router: slowAndFastRouter(gate)) {
            $0.handlerThreadCount = 2
            $0.handlerThreadsPerClient = 1
            $0.clientIdentity = { $0.headers["X-Client"] ?? "" }
        }
        let slow = try (0..<3).map { _ in try server.connect() }
        for connection in slow { _ = connection.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-Client: a\r\n\r\n") }
        XCTAssertTrue(waitUntil { gate.waiting == 1 }, "client a holds one thread of two")

        for name in ["b", "c"] {
            let other = try server.connect()
            _ = other.send("GET /fast HTTP/1.1\r\nHost: x\r\nX-Client: \(name)\r\nConnection: close\r\n\r\n")
            let answer = String(decoding: other.readToEnd(timeout: 10), as: UTF8.self)
            XCTAssertTrue(answer.hasSuffix("fast"), "client \(name) from the same address is served: \(answer.prefix(40))")
        }
        XCTAssertEqual(gate.waiting, 1, "client a's two others wait for its one thread")
        gate.open()
        for connection in slow { XCTAssertNotNil(connection.read(until: "slow", timeout: 10)) }
    }

    /// Two clients' shares together covered the pool: with a slow request
    /// each beyond their first, a third client's quick request waited until
    /// theirs ended (as it does with `slowHandlerThreads` set to the whole
    /// pool).
    func testTwoClientsSlowRequestsLeaveAThreadForAThirdClientsQuickOne() throws {
        let gate = Gate()
        let server = try TestServer(router: slowAndFastRouter(gate)) {
            $0.handlerThreadCount = 4
            $0.clientIdentity = { $0.headers["X-Client"] ?? "" }
        }
        var slow: [RawHTTPConnection] = []
        for name in ["a", "b"] {
            for _ in 0..<4 {
                let connection = try server.connect()
                _ = connection.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-Client: \(name)\r\n\r\n")
                slow.append(connection)
            }
        }
        XCTAssertTrue(waitUntil { gate.waiting == 3 }, "slow work holds all threads but one")

        let other = try server.connect()
        _ = other.send("GET /fast HTTP/1.1\r\nHost: x\r\nX-Client: c\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: other.readToEnd(timeout: 10), as: UTF8.self)
        XCTAssertTrue(answer.hasSuffix("fast"), "a third client's quick request is served meanwhile: \(answer.prefix(40))")
        XCTAssertEqual(gate.waiting, 3, "the slow requests past the limit still wait")

        gate.open()
        for connection in slow {
            XCTAssertNotNil(connection.read(until: "slow", timeout: 10), "each slow request is answered in its turn")
        }
        XCTAssertEqual(gate.waiting, 8)
    }

    /// A stop waits for the work whose place was taken before it closed the
    /// pool, and no place is given after: a connection suspended for work
    /// that no handler would resume makes libmicrohttpd abort the process
    /// when the daemon stops.
    func testAClosedPoolTakesNoMoreWorkAndWaitsForWorkPromisedBefore() {
        let pool = HandlerPool(threadCount: 2, perClient: 1, slowLimit: 1)
        defer { pool.stop() }
        XCTAssertTrue(pool.reserve())
        let closed = Flag()
        Thread.detachNewThread {
            pool.closeAndWaitUntilIdle()
            closed.set()
        }
        XCTAssertTrue(waitUntil { pool.isClosed }, "the close begins")
        XCTAssertFalse(pool.reserve(), "once closing, the pool takes no more work")
        XCTAssertFalse(closed.isSet, "the close waits for the place taken before it")
        let ran = Flag()
        pool.submit(for: "a", reserved: true) { ran.set() }
        XCTAssertTrue(waitUntil { closed.isSet }, "the close is over once that work has run")
        XCTAssertTrue(ran.isSet)
    }

    func testASlowLimitLargerThanThePoolIsRefusedAtStart() {
        var configuration = ServerConfiguration()
        configuration.handlerThreadCount = 2
        configuration.slowHandlerThreads = 3
        let server = Server(configuration: configuration, router: helloRouter())
        XCTAssertThrowsError(try server.start())
    }

    func testAShareLargerThanThePoolIsRefusedAtStart() {
        var configuration = ServerConfiguration()
        configuration.handlerThreadCount = 2
        configuration.handlerThreadsPerClient = 3
        let server = Server(configuration: configuration, router: helloRouter())
        XCTAssertThrowsError(try server.start())
    }

    /// `/slow` (a slow route) waits at the gate; `/fast` answers at once.
    private func slowAndFastRouter(_ gate: Gate) -> Router {
        var router = Router()
        router.route(.get, "/slow", slow: true) { _ in
            gate.arriveAndWait()
            return .text("slow")
        }
        router.route(.get, "/fast") { _ in .text("fast") }
        return router
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
