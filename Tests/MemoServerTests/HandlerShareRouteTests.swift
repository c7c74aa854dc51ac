import Foundation
import HTTPServer
import MemoCore
import MemoKit
@testable import MemoServer
import TestSupport
import XCTest

/// The server's handler threads are shared by credential: one token's slow
/// requests leave a thread for every other client, although every local
/// program comes from 127.0.0.1 (issue 29).
final class HandlerShareRouteTests: XCTestCase {
    func testOneTokensSlowRequestsLeaveAThreadForAnotherToken() throws {
        let gate = Gate()
        let server = try APITestServer { router in
            router.route(.get, "/api/v1/test-slow") { _ in
                gate.arriveAndWait()
                return .text("slow")
            }
        }
        server.onboard()
        let other = try AccessTokens(connection: MemoDatabase.open(in: server.home))
            .create(name: "phone", at: SystemWallClock().now()).secret
        let port = server.server.boundAddress!.port
        // The scheme in another case is the same credential, the same client.
        let slow = try (0..<6).map { index in
            let connection = try RawHTTPConnection(port: port)
            _ = connection.send("GET /api/v1/test-slow HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                + "Authorization: \(index % 2 == 0 ? "Bearer" : "bearer") \(server.token)\r\n\r\n")
            return connection
        }
        XCTAssertTrue(waitUntil { gate.waiting == 3 }, "one token holds three of the four handler threads")

        let list = Curl.run(["-H", "Authorization: Bearer \(other)", server.url("/api/v1/todos")], maxTime: 10)
        XCTAssertEqual(list.status, 200, "another token's request is served meanwhile: \(list.stderr)")
        let unauthenticated = Curl.run([server.url("/api/v1/todos")], maxTime: 10)
        XCTAssertEqual(unauthenticated.status, 401, "a request without a credential is its address's, served too")
        XCTAssertEqual(gate.waiting, 3, "the first token's other requests wait for its threads")

        gate.open()
        for connection in slow {
            XCTAssertNotNil(connection.read(until: "slow", timeout: 10), "each slow request is answered in its turn")
        }
    }

    /// Two tokens (a phone and a script) held the four handler threads
    /// between them, three and one, and a third credential's list waited
    /// until their slow requests ended: slow routes now leave a thread over.
    func testTwoTokensSlowRequestsLeaveAThreadForAThirdCredential() throws {
        let gate = Gate()
        let server = try APITestServer { router in
            router.route(.get, "/api/v1/test-slow", slow: true) { _ in
                gate.arriveAndWait()
                return .text("slow")
            }
        }
        server.onboard()
        let tokens = AccessTokens(connection: try MemoDatabase.open(in: server.home))
        let now = SystemWallClock().now()
        let (phone, script, page) = try (tokens.create(name: "phone", at: now).secret,
                                         tokens.create(name: "script", at: now).secret,
                                         tokens.create(name: "page", at: now).secret)
        let port = server.server.boundAddress!.port
        let slow = try [server.token, phone, script].flatMap { secret in
            try (0..<3).map { _ in
                let connection = try RawHTTPConnection(port: port)
                _ = connection.send("GET /api/v1/test-slow HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                    + "Authorization: Bearer \(secret)\r\n\r\n")
                return connection
            }
        }
        XCTAssertTrue(waitUntil { gate.waiting == 3 }, "slow requests hold three of the four handler threads")

        let list = Curl.run(["-H", "Authorization: Bearer \(page)", server.url("/api/v1/todos")], maxTime: 10)
        XCTAssertEqual(list.status, 200, "a fourth credential's list is served meanwhile: \(list.stderr)")
        XCTAssertEqual(gate.waiting, 3, "the slow requests past the limit wait")

        gate.open()
        for connection in slow {
            XCTAssertNotNil(connection.read(until: "slow", timeout: 10), "each slow request is answered in its turn")
        }
    }

    func testTheRoutesThatReadOrWriteTheWholeHomeAreSlow() throws {
        let server = try APITestServer()
        let slow = Set(server.server.routes.filter(\.isSlow).map { "\($0.method.rawValue) \($0.pattern)" })
        XCTAssertEqual(slow, ["GET /api/v1/export", "POST /api/v1/import", "GET /api/v1/doctor",
                              "GET /api/v1/sync/changes", "POST /api/v1/sync/changes", "POST /api/v1/voice",
                              "PUT /api/v1/sync/blobs/{checksum}"])
    }
}

private func waitUntil(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
