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

    func testAShareLargerThanThePoolIsRefusedAtStart() {
        var configuration = ServerConfiguration()
        configuration.handlerThreadCount = 2
        configuration.handlerThreadsPerClient = 3
        let server = Server(configuration: configuration, router: helloRouter())
        XCTAssertThrowsError(try server.start())
    }

    /// `/slow` waits at the gate; `/fast` answers at once.
    private func slowAndFastRouter(_ gate: Gate) -> Router {
        var router = Router()
        router.route(.get, "/slow") { _ in
            gate.arriveAndWait()
            return .text("slow")
        }
        router.route(.get, "/fast") { _ in .text("fast") }
        return router
    }
}
