import Foundation
import HTTPServer
import MemoCore
import MemoKit
@testable import MemoServer
import TestSupport
import XCTest

/// The hook every request passes: credentials, the Host check, the gate.
final class AccessTests: XCTestCase {
    func testHealthNeedsNoTokenAndSaysTheVersion() throws {
        let server = try APITestServer()
        let result = server.curl("GET", "/api/v1/health", authorized: false)
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertEqual(result.object["status"] as? String, "ok")
        XCTAssertEqual(result.object["version"] as? String, Version.current)
        XCTAssertEqual(result.header("X-Content-Type-Options"), "nosniff")
    }

    func testEveryOtherRouteNeedsABearerToken() throws {
        let server = try APITestServer()
        for path in ["/api/v1/todos", "/api/v1/onboarding", "/api/v1/no-such-route"] {
            let result = server.curl("GET", path, authorized: false)
            XCTAssertEqual(result.status, 401, path)
            XCTAssertEqual(result.errorCode, "unauthorized", path)
            XCTAssertNotNil(result.header("WWW-Authenticate"))
        }
        let wrong = server.curl("GET", "/api/v1/onboarding", authorized: false,
                                headers: ["Authorization: Bearer " + String(repeating: "0", count: 64)])
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding").status, 200)
    }

    func testARevokedTokenIsRefusedAtOnceByTheRunningServer() throws {
        let server = try APITestServer()
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding").status, 200)
        try AccessTokens(connection: MemoDatabase.open(in: server.home)).revoke(name: "test")
        let result = server.curl("GET", "/api/v1/onboarding")
        XCTAssertEqual(result.status, 401)
        XCTAssertEqual(result.errorCode, "unauthorized")
    }

    func testATokenIsStoredOnlyAsItsDigestAndItsUseIsRecorded() throws {
        let server = try APITestServer()
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding").status, 200)
        let connection = try MemoDatabase.open(in: server.home)
        let stored = try connection.query("SELECT hash FROM api_tokens") { $0.blob(0) }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored[0].count, 32)
        XCTAssertFalse(String(decoding: stored[0], as: UTF8.self).contains(server.token))
        XCTAssertNotNil(try AccessTokens(connection: connection).list().first?.lastUsedAt)
    }

    /// Issue 29, finding 3: wrong tokens from any number of loopback
    /// addresses never make the right one fail, yet they all spend one budget.
    func testWrongTokensFromRotatingAddressesNeverLockOutTheRightOne() throws {
        let server = try APITestServer()
        server.onboard()
        let wrong = "Authorization: Bearer " + String(repeating: "1", count: 64)
        func attempt(from address: String, _ header: String) -> CurlResult {
            Curl.run(["--interface", address, "-H", header, server.url("/api/v1/todos")])
        }
        let failures = Int(AuthenticationThrottle().burst) + 10
        for index in 0..<failures {
            // Half from the owner's own address (a neighbour process), half rotating through 127.0.0.0/8.
            let refused = attempt(from: index.isMultiple(of: 2) ? "127.0.0.1" : "127.0.0.\(2 + index)", wrong)
            XCTAssertEqual(refused.status, 401)
            XCTAssertEqual(refused.errorCode, "unauthorized")
            if index % 10 == 9 {
                let owner = attempt(from: "127.0.0.1", "Authorization: Bearer \(server.token)")
                XCTAssertEqual(owner.status, 200, "the right token was refused after \(index + 1) wrong ones: \(owner.text)")
            }
        }
        // The budget is the server's: addresses never seen before find it
        // spent. (Each tries once; the budget comes back a failure per few
        // seconds, so however slowly this runs, a wait is soon asked for.)
        var slowed: String?
        for index in 1...200 where slowed == nil {
            let fresh = attempt(from: "127.0.1.\(index)", wrong)
            XCTAssertEqual(fresh.status, 401)
            if fresh.header("Retry-After") != nil { slowed = "127.0.1.\(index)" }
        }
        let address = try XCTUnwrap(slowed, "rotating the source address got round the throttle")
        XCTAssertEqual(attempt(from: address, "Authorization: Bearer \(server.token)").status, 200)
        // A signed-out tab's dead cookie hears that its session ended (the page then shows sign-in).
        let dead = attempt(from: "127.0.0.1", "Cookie: memoapp_session=" + String(repeating: "d", count: 64))
        XCTAssertEqual(dead.status, 401)
        XCTAssertEqual(dead.errorCode, "unauthorized")
        XCTAssertTrue(dead.text.contains("the session has ended"), dead.text)
    }

    func testTheBudgetIsSpentByFailuresAloneAndComesBackWithTime() {
        let throttle = AuthenticationThrottle()
        for _ in 0..<Int(throttle.burst) { XCTAssertNil(throttle.recordFailure(now: 100)) }
        XCTAssertNil(throttle.remainingWait(now: 100))
        let wait = throttle.recordFailure(now: 100)
        XCTAssertEqual(wait, throttle.refillSeconds)
        // A flood waits one refill past empty, not its own length.
        for _ in 0..<1000 { XCTAssertEqual(throttle.recordFailure(now: 100), throttle.refillSeconds) }
        XCTAssertEqual(throttle.remainingWait(now: 100 + throttle.refillSeconds / 2), throttle.refillSeconds / 2)
        XCTAssertNil(throttle.remainingWait(now: 100 + throttle.refillSeconds))
        XCTAssertNil(throttle.recordFailure(now: 100 + 2 * throttle.refillSeconds), "one failure's worth came back")
        XCTAssertNotNil(throttle.recordFailure(now: 100 + 2 * throttle.refillSeconds))
        // A clock read out of order (two threads) takes nothing back.
        XCTAssertNotNil(throttle.recordFailure(now: 50))
        XCTAssertNil(throttle.recordFailure(now: 100 + 2 * throttle.refillSeconds + throttle.burst * throttle.refillSeconds + 5))
    }

    func testAForeignHostIsMisdirectedOnLoopback() throws {
        let server = try APITestServer()
        let port = server.server.boundAddress!.port
        for host in ["evil.example:\(port)", "127.0.0.1:1", "localhost.evil.example:\(port)"] {
            let result = server.curl("GET", "/api/v1/health", headers: ["Host: \(host)"])
            XCTAssertEqual(result.status, 421, host)
        }
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "LOCALHOST:\(port)"] {
            XCTAssertEqual(server.curl("GET", "/api/v1/health", headers: ["Host: \(host)"]).status, 200, host)
        }
    }

    func testTheGateHoldsForARouteOnlyThisTestRegisters() throws {
        let server = try APITestServer { router in
            router.route(.get, "/api/v1/test-only") { _ in .text("ran") }
        }
        let closed = server.curl("GET", "/api/v1/test-only")
        XCTAssertEqual(closed.status, 403)
        XCTAssertEqual(closed.errorCode, "onboarding_required")
        XCTAssertTrue((closed.object["error"] as? [String: Any])?["message"].map { "\($0)" }?.contains("onboarding") ?? false)
        server.onboard()
        let open = server.curl("GET", "/api/v1/test-only")
        XCTAssertEqual(open.status, 200)
        XCTAssertEqual(open.text, "ran")
        // Reset closes it again.
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/reset").status, 200)
        XCTAssertEqual(server.curl("GET", "/api/v1/test-only").status, 403)
    }

    /// The credential and the gate are read together, but judged in order:
    /// a forged token is a 401 whether or not the gate is open.
    func testTheCredentialIsJudgedBeforeTheGate() throws {
        let server = try APITestServer()
        let forged = ["Authorization: Bearer " + String(repeating: "ab", count: 32)]
        XCTAssertEqual(server.curl("GET", "/api/v1/todos", authorized: false, headers: forged).status, 401)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").errorCode, "onboarding_required")
        server.onboard()
        let refused = server.curl("GET", "/api/v1/todos", authorized: false, headers: forged)
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.errorCode, "unauthorized")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").status, 200)
    }

    func testCORSAllowsExactlyTheOneOriginAndNeverItsCookie() throws {
        XCTAssertEqual(try APITestServer().curl("OPTIONS", "/api/v1/todos", authorized: false,
                                                headers: ["Origin: https://app.example"]).header("Access-Control-Allow-Origin"),
                       nil, "CORS is off unless asked for")
        let server = try APITestServer(allowedOrigin: "https://app.example")
        let preflight = server.curl("OPTIONS", "/api/v1/todos", authorized: false,
                                    headers: ["Origin: https://app.example", "Access-Control-Request-Method: POST"])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertTrue(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") ?? false)
        XCTAssertNil(preflight.header("Access-Control-Allow-Credentials"))
        let other = server.curl("OPTIONS", "/api/v1/todos", authorized: false, headers: ["Origin: https://evil.example"])
        XCTAssertNotEqual(other.status, 204)
        XCTAssertEqual(other.header("Access-Control-Allow-Origin"), "https://app.example", "never reflected")
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding", headers: ["Origin: https://app.example"])
            .header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertThrowsError(try APITestServer(allowedOrigin: "null"))
        XCTAssertThrowsError(try APITestServer(allowedOrigin: "*"))
        XCTAssertThrowsError(try APITestServer(allowedOrigin: "https://app.example/path"))
    }

    func testErrorKindsMapToStatusesInOnePlace() {
        XCTAssertEqual(ErrorResponses.status(for: .usage), 400)
        XCTAssertEqual(ErrorResponses.status(for: .unauthorized), 401)
        XCTAssertEqual(ErrorResponses.status(for: .onboardingRequired), 403)
        XCTAssertEqual(ErrorResponses.status(for: .notFound), 404)
        XCTAssertEqual(ErrorResponses.status(for: .invalidState), 409)
        XCTAssertEqual(ErrorResponses.status(for: .duplicate), 409)
        XCTAssertEqual(ErrorResponses.status(for: .badInput), 422)
        XCTAssertEqual(ErrorResponses.status(for: .tooLarge), 413)
        XCTAssertEqual(ErrorResponses.status(for: .storage), 503)
        XCTAssertEqual(ErrorResponses.status(for: .internalFailure), 500)
    }

    func testTheBearerSchemeIsReadInAnyCaseWithOneTokenAfterIt() {
        XCTAssertEqual(Access.bearerToken("Bearer abc123"), "abc123")
        XCTAssertEqual(Access.bearerToken("bEaReR  abc123 "), "abc123")
        XCTAssertEqual(Access.bearerToken("BEARER 한"), "한")
        XCTAssertNil(Access.bearerToken(nil))
        XCTAssertNil(Access.bearerToken("Basic abc123"))
        XCTAssertNil(Access.bearerToken("Bearer"))
        XCTAssertNil(Access.bearerToken("Bearer a b"))
        XCTAssertNil(Access.bearerToken("Bearers abc"))
        XCTAssertNil(Access.bearerToken("Bearer\tabc"))
    }

    func testBeforeItsPortIsKnownALoopbackServerLetsNoHostPast() throws {
        let directory = TemporaryDirectory()
        let home = DataHome(path: directory.appending("home"))
        let pool = try MemoDatabase.openPool(in: home, readers: 1)
        let services = ServerServices(home: home, pool: pool, clock: SystemWallClock(), isLoopback: true, maximumUpload: 1)
        let request = Request(method: .get, target: "/api/v1/todos", path: ["api", "v1", "todos"],
                              headers: ["Host": "localhost:8765"])
        XCTAssertThrowsError(try Access.checkHost(request, services)) { error in
            XCTAssertEqual((error as? HTTPError)?.status, 503)
        }
        services.loopbackHosts.set(Access.loopbackHosts(port: 8765))
        XCTAssertNoThrow(try Access.checkHost(request, services))
        let elsewhere = Request(method: .get, target: "/api/v1/todos", path: ["api", "v1", "todos"],
                                headers: ["Host": "rebound.example:8765"])
        XCTAssertThrowsError(try Access.checkHost(elsewhere, services)) { error in
            XCTAssertEqual((error as? HTTPError)?.status, 421)
        }
    }

    func testTheLoopbackHostsIncludeTheAddressTheServerIsBoundTo() throws {
        XCTAssertEqual(Access.loopbackHosts(boundTo: try ListenAddress(parsing: "127.0.0.1:8765")),
                       Access.loopbackHosts(port: 8765))
        XCTAssertEqual(Access.loopbackHosts(boundTo: try ListenAddress(parsing: "127.0.0.2:8765")),
                       Access.loopbackHosts(port: 8765) + ["127.0.0.2:8765"])
        XCTAssertEqual(Access.loopbackHosts(boundTo: try ListenAddress(parsing: "127.1.2.3:80")),
                       Access.loopbackHosts(port: 80) + ["127.1.2.3:80", "127.1.2.3"])
        XCTAssertEqual(Access.loopbackHosts(boundTo: try ListenAddress(parsing: "[::1]:8765")), Access.loopbackHosts(port: 8765))
    }

    func testAnAllowedOriginIsWrittenAsABrowserSendsIt() throws {
        XCTAssertEqual(try MemoServer.normalizedOrigin("HTTPS://App.EXAMPLE"), "https://app.example")
        XCTAssertEqual(try MemoServer.normalizedOrigin("https://app.example:443"), "https://app.example")
        XCTAssertEqual(try MemoServer.normalizedOrigin("HTTP://127.0.0.1:80"), "http://127.0.0.1")
        XCTAssertEqual(try MemoServer.normalizedOrigin("http://app.example:8443"), "http://app.example:8443")
        XCTAssertEqual(try MemoServer.normalizedOrigin("https://app.example:4430"), "https://app.example:4430")
        for bad in ["null", "*", "HTTPS://", "ftp://x", "https://x/path", "https://x y", "https://ü.example"] {
            XCTAssertThrowsError(try MemoServer.normalizedOrigin(bad), bad)
        }
    }

    func testTheLoopbackHostsNameThePortAndStandAloneOnlyOnPort80() {
        XCTAssertEqual(Access.loopbackHosts(port: 8765), ["localhost:8765", "127.0.0.1:8765", "[::1]:8765"])
        XCTAssertEqual(Access.loopbackHosts(port: 80), ["localhost:80", "127.0.0.1:80", "[::1]:80",
                                                        "localhost", "127.0.0.1", "[::1]"])
    }
}
