import Foundation
@testable import HTTPServer
import TestSupport
import XCTest

/// Heads whose framing could be read two ways, targets in absolute form,
/// codings and expectations the server cannot meet (issue 29, finding 7):
/// each gets its answer, and nothing the client sent after it is ever
/// answered as a request of its own.
final class RequestFramingTests: XCTestCase {
    /// `GET /` says "ok", `GET /smuggled` counts its calls, `POST /echo`
    /// takes at most 1024 bytes, `GET /host` says the host the request names.
    private func framingServer(smuggled: Locked<Int>) throws -> TestServer {
        var router = Router()
        router.route(.get, "/") { _ in .text("ok") }
        router.route(.get, "/smuggled") { _ in
            smuggled.withValue { $0 += 1 }
            return .text("smuggled")
        }
        router.route(.get, "/host") { request in .text(request.host ?? "none") }
        router.collect(.post, "/echo", bodyLimit: 1024) { _, body in .bytes(body, contentType: "text/plain") }
        return try TestServer(router: router)
    }

    /// Every response in what one connection received, by status.
    private func statuses(_ bytes: [UInt8]) -> [Int] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    private let smuggledRequest = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    func testContentLengthsThatDisagreeAre400AndTheLeftoverIsNeverASecondRequest() throws {
        let smuggled = Locked(0)
        let server = try framingServer(smuggled: smuggled)
        let heads = [
            "Content-Length: 5\r\nContent-Length: \(5 + smuggledRequest.utf8.count)\r\n",
            "Content-Length: \(5 + smuggledRequest.utf8.count)\r\nContent-Length: 5\r\n",
            "Content-Length: 5, \(5 + smuggledRequest.utf8.count)\r\n",
            "Content-Length: 5\r\nContent-Length: \r\n",
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
        ]
        for head in heads {
            let answer = try server.raw("POST /echo HTTP/1.1\r\nHost: x\r\n\(head)\r\nhello" + smuggledRequest)
            // A value libmicrohttpd cannot read as one number ("5, 40") it
            // refuses itself, and 0.9.75 writes that 400's head twice: still
            // one refusal, and the connection closed.
            XCTAssertEqual(Set(statuses(answer)), [400], head.debugDescription)
            XCTAssertTrue(String(decoding: answer, as: UTF8.self).contains("Content-Length"), "the answer says why")
        }
        XCTAssertEqual(smuggled.current, 0, "bytes after the refused head were answered as a request")
        // The same length twice says one thing: accepted.
        let agreeing = try server.raw("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n"
                                      + "Connection: close\r\n\r\nhello")
        XCTAssertEqual(statuses(agreeing), [200])
        XCTAssertTrue(String(decoding: agreeing, as: UTF8.self).hasSuffix("hello"))
        server.assertStillServes()
    }

    func testTwoHostFieldsAre400() throws {
        let server = try framingServer(smuggled: Locked(0))
        let answer = try server.raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(RawHTTPConnection.status(of: answer), 400)
        XCTAssertEqual(statuses(try server.raw("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")), [200])
    }

    func testAnAbsoluteFormTargetIsServedAndItsAuthorityIsTheHost() throws {
        let server = try framingServer(smuggled: Locked(0))
        func get(_ target: String, host: String = "ignored.example") throws -> (Int?, String) {
            let answer = try server.raw("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            let text = String(decoding: answer, as: UTF8.self)
            return (RawHTTPConnection.status(of: answer), text.components(separatedBy: "\r\n\r\n").last ?? "")
        }
        XCTAssertEqual(try get("http://127.0.0.1:8/host").1, "127.0.0.1:8", "the target's authority wins over Host")
        XCTAssertEqual(try get("HTTPS://Example.org/host?x=1").1, "Example.org")
        XCTAssertEqual(try get("/host", host: "origin.example").1, "origin.example")
        XCTAssertEqual(try get("http://x").0, 200, "no path is the root")
        XCTAssertEqual(try get("http://x/").1, "ok")
        for bad in ["http:///", "http://user@x/", "http://user:pw@127.0.0.1:8/", "http://x/../etc", "ftp://x/", "x/"] {
            XCTAssertEqual(try get(bad).0, 400, bad)
        }
        server.assertStillServes()
    }

    func testATransferCodingOtherThanChunkedIs501AtOnce() throws {
        let server = try framingServer(smuggled: Locked(0))
        for coding in ["gzip", "gzip, chunked", "chunked, gzip", "identity", "chunked, chunked"] {
            let connection = try server.connect()
            // The body never ends: an answer can only come from the head.
            connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\nabc")
            let answer = try XCTUnwrap(connection.read(until: "\r\n\r\n", timeout: 30), coding)
            XCTAssertEqual(RawHTTPConnection.status(of: answer), 501, coding)
        }
        let chunked = try server.raw("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n"
                                     + "5\r\nhello\r\n0\r\n\r\n")
        XCTAssertEqual(statuses(chunked), [200])
        XCTAssertTrue(String(decoding: chunked, as: UTF8.self).hasSuffix("hello"))
    }

    func testAChunkedBodyOverTheLimitIsAnswered413() throws {
        let server = try framingServer(smuggled: Locked(0))
        let connection = try server.connect()
        connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let piece = Array("10000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x10000) + Array("\r\n".utf8)
        // 2 MiB against a limit of 1 KiB: well past the old allowance of 256 KiB.
        for _ in 0..<32 { XCTAssertTrue(connection.send(piece), "the server stopped reading a body it could still answer") }
        connection.send("0\r\n\r\n")
        let answer = try XCTUnwrap(connection.read(until: "\r\n\r\n", timeout: 30))
        XCTAssertEqual(RawHTTPConnection.status(of: answer), 413)
        server.assertStillServes()
    }

    func testAnExpectationOtherThan100ContinueIs417() throws {
        let server = try framingServer(smuggled: Locked(0))
        for expectation in ["200-ok", "100-continue, 200-ok", "nonsense"] {
            let answer = try server.raw("GET / HTTP/1.1\r\nHost: x\r\nExpect: \(expectation)\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(RawHTTPConnection.status(of: answer), 417, expectation)
        }
        let connection = try server.connect()
        connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-Continue\r\nConnection: close\r\n\r\n")
        XCTAssertNotNil(connection.read(until: "100 Continue"), "100-continue is still met")
        connection.send("hello")
        XCTAssertTrue(String(decoding: connection.readToEnd(), as: UTF8.self).hasSuffix("hello"))
    }
}
