import Foundation
import MemoCore
import MemoKit
@testable import MemoServer
import SQLite
import TestSupport
import XCTest

/// Issue 29, finding 1: an open event stream outlived its credential. As
/// reproduced: a stream kept delivering whole items after `memoapp token
/// revoke` in another process and after `DELETE /api/v1/session`. Every
/// stream of a revoked token or an ended session now ends at once, and a
/// change made after it never reaches that client.
final class EventAccessRouteTests: XCTestCase {
    private func subscribe(_ server: APITestServer, _ credential: String,
                           path: String = "/api/v1/events") throws -> RawHTTPConnection {
        let port = server.server.boundAddress!.port
        let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
        connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(credential)\r\n\r\n")
        XCTAssertNotNil(connection.read(until: ": connected"), "the stream opens")
        return connection
    }

    /// Reads until the stream's response ends with its last chunk (`0`,
    /// then an empty line: an end the server chose, not a connection cut
    /// by a time-out); what arrived before it, or nil when it did not come
    /// within the (generous) time-out or the connection closed without it.
    private func readUntilEnded(_ connection: RawHTTPConnection, timeout: Double = 20) -> String? {
        var received = ""
        // The chunk before ended with CRLF, possibly in an earlier read.
        while !(received.hasPrefix("0\r\n\r\n") || received.contains("\r\n0\r\n\r\n")) {
            guard let chunk = connection.readSome(timeout: timeout), !chunk.isEmpty else { return nil }
            received += String(decoding: chunk, as: UTF8.self)
        }
        return received
    }

    func testRevokingTheTokenInAnotherProcessEndsItsStreamsAtOnce() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        let other = try XCTUnwrap(memoapp.run("token", "create", "phone", "--json").object()["token"] as? String)
        let revoked = try subscribe(server, "Authorization: Bearer \(other)")
        let onboarding = try subscribe(server, "Authorization: Bearer \(other)", path: "/api/v1/onboarding/events")
        let kept = try subscribe(server, "Authorization: Bearer \(server.token)")
        // Delivered while the token holds.
        XCTAssertEqual(memoapp.run("todo", "add", "before").status, 0)
        XCTAssertNotNil(revoked.read(until: "before"))

        XCTAssertEqual(memoapp.run("token", "revoke", "phone").status, 0)
        let rest = try XCTUnwrap(readUntilEnded(revoked), "the revoked token's stream ends without anything written after")
        XCTAssertNotNil(readUntilEnded(onboarding), "the onboarding's stream of that token ends too")
        XCTAssertEqual(memoapp.run("todo", "add", "after").status, 0)
        XCTAssertNotNil(kept.read(until: "after"), "another token's stream goes on")
        XCTAssertFalse(rest.contains("after"), rest)
        // And the token opens no new stream.
        let port = server.server.boundAddress!.port
        let again = try RawHTTPConnection(host: "127.0.0.1", port: port)
        again.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(other)\r\n\r\n")
        XCTAssertEqual(RawHTTPConnection.status(of: again.read(until: "\r\n\r\n") ?? []), 401)
    }

    func testSigningOutEndsTheSessionsStreams() throws {
        let server = try APITestServer()
        server.onboard()
        let (cookie, csrf) = try signIn(server)
        let (otherCookie, _) = try signIn(server)
        let signedOut = try subscribe(server, "Cookie: \(cookie)")
        let stays = try subscribe(server, "Cookie: \(otherCookie)")
        let out = server.curl("DELETE", "/api/v1/session", authorized: false, headers: ["Cookie: \(cookie)", "X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(out.status, 204)
        let rest = try XCTUnwrap(readUntilEnded(signedOut), "the signed-out session's stream ends")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "later"}"#).status, 201)
        XCTAssertNotNil(stays.read(until: "later"), "the other session's stream goes on")
        XCTAssertFalse(rest.contains("later"), rest)
    }

    func testASessionEndedOrExpiredOutsideTheServerEndsItsStream() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        let (cookie, _) = try signIn(server)
        let ended = try subscribe(server, "Cookie: \(cookie)")
        let sessions = memoapp.run("token", "sessions", "--json").array()
        XCTAssertEqual(sessions.count, 1)
        let id = try XCTUnwrap(sessions.first?["id"] as? String)
        XCTAssertEqual(memoapp.run("token", "end-session", id).status, 0)
        XCTAssertNotNil(readUntilEnded(ended), "a session ended by the command line ends its stream")

        // Expired, with no revocation: a write that moves its expiry into
        // the past stands for the clock passing it (no test waits a week).
        let (expiring, _) = try signIn(server)
        let stream = try subscribe(server, "Cookie: \(expiring)")
        let connection = try MemoDatabase.open(in: server.home)
        try connection.execute("UPDATE api_sessions SET expires_at = 1")
        XCTAssertNotNil(readUntilEnded(stream), "an expired session's stream ends")
    }

    func testAMalformedOrUnknownCredentialOpensNoStream() throws {
        let server = try APITestServer()
        server.onboard()
        let port = server.server.boundAddress!.port
        for credential in ["Authorization: Bearer " + String(repeating: "z", count: 64), "Authorization: Basic abc",
                           "Cookie: memoapp_session=" + String(repeating: "0", count: 64), "Cookie: memoapp_session=short"] {
            let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
            connection.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(credential)\r\n\r\n")
            XCTAssertEqual(RawHTTPConnection.status(of: connection.read(until: "\r\n\r\n") ?? []), 401, credential)
        }
    }

    private func signIn(_ server: APITestServer) throws -> (cookie: String, csrf: String) {
        let link = try server.server.signInLink()
        let code = String(link.split(separator: "=").last ?? "")
        let answer = server.curl("POST", "/api/v1/session", json: #"{"code": "\#(code)"}"#, authorized: false)
        XCTAssertEqual(answer.status, 200, answer.text)
        let cookie = try XCTUnwrap(answer.header("Set-Cookie")).split(separator: ";")[0]
        return (String(cookie), try XCTUnwrap(answer.object["csrf_token"] as? String))
    }
}
