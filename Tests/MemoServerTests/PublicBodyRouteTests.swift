import Foundation
import HTTPServer
@testable import MemoServer
import TestSupport
import XCTest

/// The routes open to anyone take small bodies, and a body trickled to them
/// holds its connection for seconds, not for as long as it trickles
/// (issue 29).
final class PublicBodyRouteTests: XCTestCase {
    func testPublicRoutesRefuseBodiesOverSixteenKiBAtOnce() throws {
        let server = try APITestServer()
        for path in ["/api/v1/session", "/api/v1/device-codes/exchange"] {
            let body = "{\"code\": \"" + String(repeating: "x", count: 16 << 10) + "\"}"
            let result = server.curl("POST", path, json: body, authorized: false)
            XCTAssertEqual(result.status, 413, path)
            XCTAssertEqual(result.errorCode, "too_large", path)
        }
    }

    func testABodyTrickledToSignInIsCutWithinItsTime() throws {
        let server = try APITestServer()
        let port = server.server.boundAddress!.port
        let connection = try RawHTTPConnection(port: port)
        let started = Date()
        connection.send("POST /api/v1/session HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 16384\r\n\r\n{")
        // A byte every half second: never silent for the 15 s time-out, and
        // the body would take over two hours.
        var isClosed = false
        for _ in 0..<60 where !isClosed {
            connection.send(" ")
            isClosed = connection.closesWithin(0.5)
        }
        XCTAssertTrue(isClosed, "the trickle was cut")
        // 5 s, and 1 for 16 KiB at 16 KiB a second; the look is four times a second.
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "cut before the connection time-out would have")
    }
}
