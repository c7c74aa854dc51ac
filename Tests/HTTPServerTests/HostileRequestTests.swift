import Foundation
@testable import HTTPServer
import TestSupport
import XCTest

/// What a hostile or broken client sends; after each, the server still serves.
final class HostileRequestTests: XCTestCase {
    private func status(_ server: TestServer, _ request: String) throws -> Int? {
        RawHTTPConnection.status(of: try server.raw(request))
    }

    func testMalformedRequestLinesAreRefused() throws {
        let server = try TestServer(router: helloRouter())
        let requests = [
            "\u{1}\u{2}\u{3} hello\r\n\r\n",
            "GET\r\n\r\n",
            "GET /\r\n\r\n",
            "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
            "GET / HTTX/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",  // no Host: refused when strict
            "GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "GET http://user@x/ HTTP/1.1\r\nHost: x\r\n\r\n",  // absolute form is served (RequestFramingTests), userinfo never
            "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
            " GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        ]
        for request in requests {
            let answer = try server.raw(request)
            let status = RawHTTPConnection.status(of: answer)
            // Refused with a 4xx/5xx, or (libmicrohttpd's choice for some lines) the connection closed unanswered.
            XCTAssertTrue(status.map { (400...505).contains($0) } ?? answer.isEmpty,
                          "\(request.debugDescription) got \(String(decoding: answer.prefix(40), as: UTF8.self))")
            server.assertStillServes()
        }
    }

    func testWithoutStrictParsingAMissingHostPassesAndASpaceInTheTargetIsStill400() throws {
        let server = try TestServer(router: helloRouter()) { $0.isStrict = false }
        XCTAssertEqual(try status(server, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"), 200)
        XCTAssertEqual(try status(server, "GET /a b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 400)
        let strict = try TestServer(router: helloRouter())
        XCTAssertEqual(try status(strict, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"), 400)
    }

    func testNULBadEscapesAndDotSegmentsAre400() throws {
        let server = try TestServer(router: helloRouter())
        for target in ["/a\u{0}b", "/?q=a\u{0}b", "/%00", "/a%zz", "/%", "/%ff%fe", "/../etc/passwd", "/a/%2e%2e/b",
                       "/a/./b", "/a\u{1B}[2J", "/é"] {
            XCTAssertEqual(try status(server, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 400,
                           target.debugDescription)
        }
        server.assertStillServes()
    }

    func testHeadersOverTheLimitAre431() throws {
        let server = try TestServer(router: helloRouter())
        let requests = [
            // Over the 16 KiB limit, within the connection's memory: the server's own check.
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 17_000))\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<2_000).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            "GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
            // Past the connection's memory: libmicrohttpd's own 431.
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n",
        ]
        for request in requests {
            XCTAssertEqual(try status(server, request), 431, "\(request.prefix(60))…")
        }
        XCTAssertEqual(try status(server, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "
                                      + String(repeating: "a", count: 15_000) + "\r\n\r\n"), 200, "just under the limit")
        // A request line longer than the connection's memory is libmicrohttpd's
        // 414, its fixed HTML made before any callback of the server's (so
        // never the app's error response).
        let answer = String(decoding: try server.raw("GET /\(String(repeating: "a", count: 200_000)) HTTP/1.1\r\nHost: x\r\n\r\n"),
                            as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 414"), String(answer.prefix(40)))
        XCTAssertTrue(answer.contains("<html>"), "libmicrohttpd's own body")
        // libmicrohttpd's own 431 is logged (the request line had arrived),
        // and so is its 414, from its diagnostic: no method or path known.
        let records = server.waitForRecords(6)
        XCTAssertEqual(records.map(\.status), [431, 431, 431, 431, 200, 414])
        XCTAssertEqual(records.last.map { [$0.method, $0.path] }, ["-", "-"])
        server.assertStillServes()
    }

    func testAStalledClientIsClosedAtTheTimeOut() throws {
        let server = try TestServer(router: helloRouter()) { $0.connectionTimeout = 1 }
        let silent = try server.connect()
        let partial = try server.connect()
        partial.send("GET / HTTP/1.1\r\nHo")
        let answered = try server.connect()
        answered.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNotNil(answered.read(until: "ok"))
        for connection in [silent, partial, answered] {
            XCTAssertTrue(connection.closesWithin(20), "a silent connection stayed open")
        }
        server.assertStillServes()
    }

    func testFiveHundredSlowClientsDoNotHoldUpAnOrdinaryRequest() throws {
        raiseOpenFileLimit(to: 4096)
        let server = try TestServer(router: helloRouter()) { $0.connectionTimeout = 3 }
        var slow: [RawHTTPConnection] = []
        for index in 0..<500 {
            let connection = try server.connect()
            connection.send("GET /\(index) HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            slow.append(connection)
        }
        let started = Date()
        let result = Curl.run([server.url("/")], maxTime: 10)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 200, result.stderr)
        XCTAssertLessThan(seconds, 5)
        print("GET beside 500 slow clients: \(Int(seconds * 1000)) ms")
        for connection in slow {
            XCTAssertTrue(connection.closesWithin(30), "a slow client outlived the time-out")
        }
        server.assertStillServes()
    }

    /// A router whose `POST /` takes a body: a connection sending one is
    /// inside a request until the body ends.
    private func uploadRouter() -> Router {
        var router = helloRouter()
        router.collect(.post, "/", bodyLimit: 1 << 20) { _, body in .text("got \(body.count)") }
        return router
    }

    /// A connection inside a request: its head read by the server (which
    /// said so with `100 Continue`), its body begun.
    private func uploading(_ server: TestServer) throws -> RawHTTPConnection {
        let connection = try server.connect()
        connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertNotNil(connection.read(until: "100 Continue\r\n\r\n"), "the head was read")
        connection.send("abc")
        return connection
    }

    func testOneAddressGetsNoMoreThanItsConnectionsInRequests() throws {
        let server = try TestServer(router: uploadRouter()) { $0.connectionsPerAddress = 3 }
        let held = try (0..<3).map { _ in try uploading(server) }
        let extra = try server.connect()
        extra.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(extra.readToEnd(), [], "the fourth connection is closed unanswered")
        XCTAssertTrue(held.allSatisfy { $0.send(Array(repeating: UInt8(ascii: "x"), count: 97)) })
        for connection in held {
            XCTAssertNotNil(connection.read(until: "got 100"), "an upload was cut to make room")
        }
        XCTAssertTrue(waitUntil { Curl.run([server.url("/")]).status == 200 }, "a place between requests serves again")
    }

    /// Issue 29, finding 4: connections that hold a place without sending a
    /// request (idle after one, or a head begun and never finished) make
    /// room for a newcomer from their address: the one waiting longest is closed.
    func testConnectionsWaitingForAHeadMakeRoomForANewcomer() throws {
        let server = try TestServer(router: helloRouter()) { $0.connectionsPerAddress = 3 }
        let idle = try server.connect()
        idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNotNil(idle.read(until: "ok"))
        let trickling = try (0..<2).map { _ in try server.connect() }
        for connection in trickling { connection.send("GET / HT") }
        XCTAssertEqual(Curl.run([server.url("/")]).status, 200, "the newcomer is served")
        XCTAssertTrue(idle.closesWithin(20), "the connection waiting longest made room")
        XCTAssertEqual(Curl.run([server.url("/")]).status, 200)
    }

    func testTheConnectionLimitHoldsAcrossThePool() throws {
        let server = try TestServer(router: uploadRouter()) {
            $0.connectionLimit = 4
            $0.threadCount = 2
        }
        let held = try (0..<4).map { _ in try uploading(server) }
        let extra = try server.connect()
        extra.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let beyond = extra.readToEnd(timeout: 2)
        XCTAssertNil(RawHTTPConnection.status(of: beyond), "a fifth connection was served at a limit of four")
        shutdown(held[0].descriptor, Int32(SHUT_RDWR))
        XCTAssertTrue(waitUntil { Curl.run([server.url("/")], maxTime: 2).status == 200 })
    }
}
