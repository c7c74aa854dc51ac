import Foundation
import HTTPServer
import MemoCore
@testable import MemoServer
import TestSupport
import XCTest

/// What the HTTP layer refuses before any route runs (issue 29, finding 7),
/// as the API answers it: the error envelope, and the Host check applied
/// to an absolute-form target's authority.
final class HTTPRefusalRouteTests: XCTestCase {
    private func raw(_ server: APITestServer, _ head: String, body: String = "") throws -> (status: Int?, body: [String: Any]) {
        let connection = try RawHTTPConnection(port: server.server.boundAddress!.port)
        connection.send(head + "Connection: close\r\n\r\n" + body)
        let answer = connection.readToEnd(timeout: 30)
        let text = String(decoding: answer, as: UTF8.self)
        let json = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        return (RawHTTPConnection.status(of: answer), object)
    }

    private func code(_ object: [String: Any]) -> String? {
        (object["error"] as? [String: Any])?["code"] as? String
    }

    func testFramingRefusalsUnderTheAPIAreErrorEnvelopes() throws {
        let server = try APITestServer()
        server.onboard()
        let host = "Host: 127.0.0.1:\(server.server.boundAddress!.port)\r\nAuthorization: Bearer \(server.token)\r\n"
        let cases: [(String, Int, String)] = [
            ("POST /api/v1/todos HTTP/1.1\r\n\(host)Content-Length: 2\r\nContent-Length: 40\r\n", 400, "usage"),
            ("GET /api/v1/health HTTP/1.1\r\n\(host)Host: evil.example\r\n", 400, "usage"),
            ("POST /api/v1/todos HTTP/1.1\r\n\(host)Transfer-Encoding: gzip\r\n", 501, "not_implemented"),
            ("GET /api/v1/health HTTP/1.1\r\n\(host)Expect: 200-ok\r\n", 417, "expectation_failed"),
        ]
        for (head, status, expected) in cases {
            let answer = try raw(server, head, body: "{}")
            XCTAssertEqual(answer.status, status, head)
            XCTAssertEqual(code(answer.body), expected, head)
        }
        // A chunked body past the JSON limit hears its 413 at the body's end.
        let piece = "10000\r\n" + String(repeating: "a", count: 0x10000) + "\r\n"
        let big = try raw(server, "POST /api/v1/todos HTTP/1.1\r\n\(host)Content-Type: application/json\r\n"
                                  + "Transfer-Encoding: chunked\r\n", body: String(repeating: piece, count: 32) + "0\r\n\r\n")
        XCTAssertEqual(big.status, 413)
        XCTAssertEqual(code(big.body), "too_large")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 0, "nothing was made")
    }

    func testAnAbsoluteFormTargetsHostIsCheckedLikeTheHostField() throws {
        let server = try APITestServer()
        let port = server.server.boundAddress!.port
        let ours = "http://127.0.0.1:\(port)/api/v1/health"
        // The target's authority is the host; the Host field beside it is ignored (RFC 9112 section 3.2.2).
        let served = try raw(server, "GET \(ours) HTTP/1.1\r\nHost: evil.example\r\n")
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(served.body["status"] as? String, "ok")
        for target in ["http://evil.example:\(port)/api/v1/health", "http://127.0.0.1:1/api/v1/health"] {
            let refused = try raw(server, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            XCTAssertEqual(refused.status, 421, target)
            XCTAssertEqual(code(refused.body), "misdirected_request", target)
        }
    }
}
