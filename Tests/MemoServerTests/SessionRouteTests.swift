import Foundation
import MemoCore
import MemoKit
@testable import MemoServer
import TestSupport
import XCTest

/// The web app's sign-in: a single-use code for an HttpOnly cookie, and a
/// CSRF token for every change made with that cookie.
final class SessionRouteTests: XCTestCase {
    private func code(_ server: APITestServer) throws -> String {
        let link = try server.server.signInLink()
        XCTAssertTrue(link.hasPrefix(server.server.url + "/#code="), link)
        return String(link.split(separator: "=").last ?? "")
    }

    private func signIn(_ server: APITestServer, code: String) -> CurlResult {
        server.curl("POST", "/api/v1/session", json: #"{"code": "\#(code)"}"#, authorized: false)
    }

    func testACodeSignsInOnceAndTheCookieNeedsTheCSRFTokenForChanges() throws {
        let server = try APITestServer()
        let code = try code(server)
        let signedIn = signIn(server, code: code)
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        let csrf = try XCTUnwrap(signedIn.object["csrf_token"] as? String)
        let cookie = try XCTUnwrap(signedIn.header("Set-Cookie"))
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"), cookie)
        XCTAssertFalse(cookie.contains("Secure"), "no TLS here")
        let pair = String(cookie.split(separator: ";")[0])
        XCTAssertEqual(signIn(server, code: code).status, 401, "a code works once")

        let withCookie = ["Cookie: \(pair)"]
        // Issue 29, finding 2: the cookie alone never gets the CSRF token
        // (any server on another port of this host receives the cookie);
        // a page that sends the token it kept learns that it still holds.
        let who = server.curl("GET", "/api/v1/session", authorized: false, headers: withCookie)
        XCTAssertEqual(who.status, 200)
        XCTAssertEqual(who.object["kind"] as? String, "session")
        XCTAssertTrue(who.object["csrf_token"] is NSNull, who.text)
        XCTAssertEqual((who.object["id"] as? String)?.count, 12)
        let confirmed = server.curl("GET", "/api/v1/session", authorized: false, headers: withCookie + ["X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(confirmed.object["csrf_token"] as? String, csrf)
        let guessed = server.curl("GET", "/api/v1/session", authorized: false,
                                  headers: withCookie + ["X-CSRF-Token: " + String(repeating: "0", count: 64)])
        XCTAssertTrue(guessed.object["csrf_token"] is NSNull, guessed.text)
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding", authorized: false, headers: withCookie).status, 200)
        let forged = server.curl("POST", "/api/v1/onboarding/skip", authorized: false, headers: withCookie)
        XCTAssertEqual(forged.status, 403)
        XCTAssertEqual(forged.errorCode, "csrf")
        let wrong = server.curl("POST", "/api/v1/onboarding/skip", authorized: false,
                                headers: withCookie + ["X-CSRF-Token: " + String(repeating: "0", count: 64)])
        XCTAssertEqual(wrong.errorCode, "csrf")
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/skip", authorized: false,
                                   headers: withCookie + ["X-CSRF-Token: \(csrf)"]).status, 200)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "from the page"}"#, authorized: false,
                                   headers: withCookie + ["X-CSRF-Token: \(csrf)"]).status, 201)

        let out = server.curl("DELETE", "/api/v1/session", authorized: false, headers: withCookie + ["X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(out.status, 204)
        XCTAssertTrue(out.header("Set-Cookie")?.contains("Max-Age=0") ?? false)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos", authorized: false, headers: withCookie).status, 401)
    }

    func testAnExpiredOrMadeUpCodeSignsNoOneIn() throws {
        let server = try APITestServer()
        let connection = try MemoDatabase.open(in: server.home)
        let sessions = WebSessions(connection: connection)
        let old = try sessions.createCode(at: Timestamp(secondsSince1970: SystemWallClock().now().secondsSince1970
                                                        - WebSessions.codeLifetime - 1)).code
        XCTAssertEqual(signIn(server, code: old).status, 401)
        XCTAssertEqual(signIn(server, code: String(repeating: "a", count: 64)).status, 401)
        XCTAssertEqual(signIn(server, code: "short").status, 401)
        // Only digests are stored.
        let code = try sessions.createCode(at: SystemWallClock().now()).code
        let stored = try connection.query("SELECT hash FROM api_sign_in_codes") { $0.blob(0) }
        XCTAssertFalse(stored.contains { String(decoding: $0, as: UTF8.self).contains(code) })
        XCTAssertEqual(signIn(server, code: code).status, 200)
    }

    func testWrongCodesSpendTheBudgetButAGoodCodeAlwaysSignsIn() throws {
        let server = try APITestServer()
        // Past the burst a wait is asked for (a loop, since the budget comes back with time).
        var slowed = false
        for _ in 0..<(Int(AuthenticationThrottle().burst) + 100) where !slowed {
            let refused = signIn(server, code: String(repeating: "b", count: 64))
            XCTAssertEqual(refused.status, 401)
            slowed = refused.header("Retry-After") != nil
        }
        XCTAssertTrue(slowed, "wrong codes were never slowed down")
        // A good code is checked whatever others failed, and signs in.
        XCTAssertEqual(signIn(server, code: try code(server)).status, 200)
    }

    func testATokenNeedsNoCSRFTokenAndSaysWhoItIs() throws {
        let server = try APITestServer()
        let who = server.curl("GET", "/api/v1/session")
        XCTAssertEqual(who.object["kind"] as? String, "token")
        XCTAssertEqual(who.object["name"] as? String, "test")
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/skip").status, 200)
    }

    /// Issue 30, item 7: a signed-in page makes a sign-in code for another
    /// device, which signs in once, as `memoapp token link`'s does.
    func testASignedInPageMakesACodeThatSignsAnotherDeviceInOnce() throws {
        let server = try APITestServer()
        let signedIn = signIn(server, code: try code(server))
        let csrf = try XCTUnwrap(signedIn.object["csrf_token"] as? String)
        let pair = String(try XCTUnwrap(signedIn.header("Set-Cookie")).split(separator: ";")[0])
        let page = ["Cookie: \(pair)", "X-CSRF-Token: \(csrf)"]

        let made = server.curl("POST", "/api/v1/session/links", authorized: false, headers: page)
        XCTAssertEqual(made.status, 201, made.text)
        let newCode = try XCTUnwrap(made.object["code"] as? String)
        XCTAssertEqual(newCode.count, 64)
        XCTAssertNotNil(made.object["expires_at"] as? String)
        let other = signIn(server, code: newCode)
        XCTAssertEqual(other.status, 200, other.text)
        XCTAssertNotEqual(other.header("Set-Cookie"), signedIn.header("Set-Cookie"), "a session of its own")
        XCTAssertEqual(signIn(server, code: newCode).status, 401, "the code works once")
        let second = server.curl("POST", "/api/v1/session/links", authorized: false, headers: page)
        XCTAssertNotEqual(second.object["code"] as? String, newCode, "each request makes a new code")
    }

    func testOnlyASignedInPageWithItsCSRFTokenMakesSignInCodes() throws {
        let server = try APITestServer()
        let token = server.curl("POST", "/api/v1/session/links")
        XCTAssertEqual(token.status, 403, "a token may not make sessions: " + token.text)
        XCTAssertEqual(token.errorCode, "session_required")
        let signedIn = signIn(server, code: try code(server))
        let pair = String(try XCTUnwrap(signedIn.header("Set-Cookie")).split(separator: ";")[0])
        let cookieAlone = server.curl("POST", "/api/v1/session/links", authorized: false, headers: ["Cookie: \(pair)"])
        XCTAssertEqual(cookieAlone.errorCode, "csrf", "a cookie that reached another port is worth nothing alone")
        XCTAssertNil(cookieAlone.object["code"])
        let nobody = server.curl("POST", "/api/v1/session/links", authorized: false)
        XCTAssertEqual(nobody.status, 401)
        XCTAssertNil(nobody.object["code"])
    }
}
