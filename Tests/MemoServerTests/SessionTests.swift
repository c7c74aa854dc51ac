import Foundation
import HTTPServer
import MemoCore
import MemoKit
@testable import MemoServer
import SQLite
import TestSupport
import XCTest

/// The web page's sign-in: a one-time code for a cookie session, CSRF on
/// every change made with the cookie, sign-out; and the page itself served
/// without credentials.
final class SessionTests: XCTestCase {
    private func code(of link: String) -> String {
        String(link[link.range(of: "#code=")!.upperBound...])
    }

    private func signIn(_ server: APITestServer, code: String) -> CurlResult {
        server.curl("POST", "/api/v1/session", json: #"{"code": "\#(code)"}"#, authorized: false)
    }

    private func cookie(_ result: CurlResult) -> String {
        String(result.header("Set-Cookie")!.split(separator: ";")[0])
    }

    func testACodeSignsInOnceAndTheCookieNeedsTheCSRFTokenForChanges() throws {
        let server = try APITestServer()
        let link = try server.server.makeSignInLink()
        XCTAssertTrue(link.hasPrefix(server.server.url + "/#code="))
        let first = signIn(server, code: code(of: link))
        XCTAssertEqual(first.status, 200, first.text)
        let setCookie = try XCTUnwrap(first.header("Set-Cookie"))
        XCTAssertTrue(setCookie.hasPrefix("memoapp_session="))
        for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] { XCTAssertTrue(setCookie.contains(flag), setCookie) }
        XCTAssertFalse(setCookie.contains("Secure"), "not under plain HTTP")
        let csrf = try XCTUnwrap(first.object["csrf_token"] as? String)
        let session = cookie(first)

        let again = signIn(server, code: code(of: link))
        XCTAssertEqual(again.status, 401)
        XCTAssertEqual(again.errorCode, "unauthorized")

        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding", authorized: false, headers: ["Cookie: \(session)"]).status, 200)
        let unprotected = server.curl("POST", "/api/v1/onboarding/next", authorized: false, headers: ["Cookie: \(session)"])
        XCTAssertEqual(unprotected.status, 403)
        XCTAssertEqual(unprotected.errorCode, "csrf")
        let wrong = server.curl("POST", "/api/v1/onboarding/next", authorized: false,
                                headers: ["Cookie: \(session)", "X-CSRF-Token: \(String(csrf.reversed()))"])
        XCTAssertEqual(wrong.errorCode, "csrf")
        let moved = server.curl("POST", "/api/v1/onboarding/next", authorized: false,
                                headers: ["Cookie: \(session)", "X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual(moved.object["current_page"] as? Int, 2)

        // A reload gets the token again; signing out ends the session for good.
        let who = server.curl("GET", "/api/v1/session", authorized: false, headers: ["Cookie: \(session)"])
        XCTAssertEqual(who.object["kind"] as? String, "session")
        XCTAssertEqual(who.object["csrf_token"] as? String, csrf)
        let out = server.curl("DELETE", "/api/v1/session", authorized: false, headers: ["Cookie: \(session)", "X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(out.status, 204)
        XCTAssertTrue(out.header("Set-Cookie")?.contains("Max-Age=0") ?? false)
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding", authorized: false, headers: ["Cookie: \(session)"]).status, 401)
    }

    func testAnExpiredCodeIsRefused() throws {
        let server = try APITestServer()
        let past = Timestamp(secondsSince1970: SystemWallClock().now().secondsSince1970 - WebSessions.codeLifetime - 1)
        let old = try WebSessions(connection: MemoDatabase.open(in: server.home)).makeCode(at: past)
        XCTAssertEqual(signIn(server, code: old).status, 401)
    }

    func testCodesAndSessionsAreStoredOnlyAsDigests() throws {
        let server = try APITestServer()
        let code = code(of: try server.server.makeSignInLink())
        let secret = String(cookie(signIn(server, code: code)).dropFirst("memoapp_session=".count))
        let database = try Data(contentsOf: URL(fileURLWithPath: server.home.databasePath))
            + ((try? Data(contentsOf: URL(fileURLWithPath: server.home.databasePath + "-wal"))) ?? Data())
        for plain in [code, secret] { XCTAssertNil(database.range(of: Data(plain.utf8)), "a secret is stored as it is") }
        let sessions = try MemoDatabase.open(in: server.home).query("SELECT count(*) FROM web_sessions") { $0.int(0) }
        XCTAssertEqual(sessions, [1])
    }

    func testThePageNeedsNoCredentialsAndAllowsOnlyItsOwnScriptsAndStyles() throws {
        let server = try APITestServer()
        let page = server.curl("GET", "/", authorized: false)
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff")
        XCTAssertTrue(page.header("Content-Security-Policy")?.contains("script-src 'self'") ?? false)
        let script = server.curl("GET", "/app/main.js", authorized: false)
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        let etag = try XCTUnwrap(script.header("ETag"))
        XCTAssertEqual(server.curl("GET", "/app/main.js", authorized: false, headers: ["If-None-Match: \(etag)"]).status, 304)
        XCTAssertEqual(server.curl("GET", "/app/nothing.js", authorized: false).status, 404)
    }
}
