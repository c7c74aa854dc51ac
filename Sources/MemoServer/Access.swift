#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoCore
import MemoKit

/// The router's `beforeEach` hook: every request passes here before its
/// route (and before any body is read), also requests no route matches, so
/// a new route cannot forget a check and a refusal reveals no path.
///
/// In order: the Host check on loopback (DNS rebinding), credentials for
/// everything under /api/v1 but the health check and the API document, then
/// the onboarding gate for everything but those and the onboarding routes.
enum Access {
    static func hook(_ services: ServerServices) -> Router.Hook {
        { request in
            try checkHost(request, services)
            guard request.path.starts(with: ["api", "v1"]) else { return nil }
            let route = Array(request.path.dropFirst(2))
            if isPublic(route) || (route == ["session"] && request.method == .post) { return nil }
            try authenticate(request, services)
            if isUngated(route) { return nil }
            try services.read { workspace in try OnboardingGate.check(workspace.database()) }
            return nil
        }
    }

    /// Routes anyone may call (they reveal nothing but that memoapp runs).
    static func isPublic(_ route: [String]) -> Bool {
        route == ["health"] || route == ["openapi.json"]
    }

    /// Routes that run before the onboarding is completed: the onboarding's
    /// own, the session's (a page reloaded mid-onboarding signs in again),
    /// and the doctor (as `memoapp doctor` does: a broken home is examined
    /// before anything else).
    static func isUngated(_ route: [String]) -> Bool {
        route.first == "onboarding" || route == ["session"] || route == ["doctor"]
    }

    // MARK: - Host

    /// On a loopback address, only `localhost`, `127.0.0.1` or `[::1]` with
    /// the server's port may be named: a page on another site whose name
    /// resolves to 127.0.0.1 (DNS rebinding) names its own host, and gets 421.
    static func checkHost(_ request: Request, _ services: ServerServices) throws {
        guard services.isLoopback, let port = services.boundPort.current else { return }
        let host = (request.headers["Host"] ?? "").lowercased()
        let allowed = ["localhost", "127.0.0.1", "[::1]"].map { "\($0):\(port)" }
        guard allowed.contains(host) || (port == 80 && ["localhost", "127.0.0.1", "[::1]"].contains(host)) else {
            throw HTTPError(status: 421, en: "this server answers only to localhost, 127.0.0.1 or [::1] with its port",
                            ko: "이 서버는 포트와 함께 localhost, 127.0.0.1, [::1]로만 응답합니다")
        }
    }

    // MARK: - Credentials

    /// Checks `Authorization: Bearer TOKEN` against the stored tokens (one
    /// indexed read per request, so a revoked token is refused at once).
    static func authenticate(_ request: Request, _ services: ServerServices) throws {
        let address = hostPart(of: request.remoteAddress)
        let now = monotonicSeconds()
        if let wait = services.throttle.remainingDelay(for: address, now: now) {
            throw unauthorized(retryAfter: Int(wait.rounded(.up)),
                               Localized(en: "too many failed attempts from this address; try again in \(Int(wait.rounded(.up))) s",
                                         ko: "이 주소에서 실패한 시도가 너무 많습니다. \(Int(wait.rounded(.up)))초 뒤에 다시 시도하세요"))
        }
        if request.headers["Authorization"] == nil, let secret = MemoRoutes.sessionSecret(request) {
            try authenticateSession(secret, request, services, address: address, now: now)
            return
        }
        guard let secret = bearerToken(request.headers["Authorization"]) else {
            throw unauthorized(retryAfter: nil, Localized(en: "this route needs 'Authorization: Bearer TOKEN' (memoapp token create NAME)",
                                                          ko: "이 경로에는 'Authorization: Bearer TOKEN'이 필요합니다 (memoapp token create NAME)"))
        }
        let found = try services.read { workspace in try AccessTokens(connection: workspace.database()).verify(secret: secret) }
        guard let (token, digest) = found else {
            services.throttle.recordFailure(from: address, now: now)
            throw unauthorized(retryAfter: nil, Localized(en: "the token is not valid (revoked, or mistyped)",
                                                          ko: "토큰이 유효하지 않습니다 (폐기되었거나 잘못 입력됨)"))
        }
        services.throttle.recordSuccess(from: address)
        let wallNow = services.clock.now()
        if AccessTokens.needsUseRecorded(token, at: wallNow) {
            // Best effort: a busy writer must not fail the request it is about.
            try? services.pool.write { connection in
                try AccessTokens(connection: connection).recordUse(digest: digest, at: wallNow)
            }
        }
    }

    /// The web page's session cookie: a live session, and on every request
    /// that changes something its CSRF token in `X-CSRF-Token` (a form on
    /// another site can send the cookie, never the header).
    static func authenticateSession(_ secret: String, _ request: Request, _ services: ServerServices,
                                    address: String, now: Double) throws {
        let session = try services.read { workspace in
            try WebSessions(connection: workspace.database()).session(secret: secret, at: workspace.clock.now())
        }
        guard let session else {
            services.throttle.recordFailure(from: address, now: now)
            throw unauthorized(retryAfter: nil, Localized(en: "the session has ended; open a new sign-in link (memoapp token link)",
                                                          ko: "세션이 끝났습니다. 새 로그인 링크를 여세요 (memoapp token link)"))
        }
        services.throttle.recordSuccess(from: address)
        guard [.get, .head].contains(request.method) || request.method.rawValue == "OPTIONS" else {
            guard let given = request.headers["X-CSRF-Token"], try WebSessions.isCSRFToken(given, of: session) else {
                throw CodedRefusal(status: 403, code: "csrf",
                                   message: Localized(en: "this request needs the session's X-CSRF-Token header",
                                                      ko: "이 요청에는 세션의 X-CSRF-Token 헤더가 필요합니다"))
            }
            return
        }
    }

    /// The token of an `Authorization: Bearer …` value (scheme in any case).
    static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    private static func unauthorized(retryAfter: Int?, _ message: Localized) -> HTTPError {
        var headers: Headers = ["WWW-Authenticate": "Bearer realm=\"memoapp\""]
        if let retryAfter { headers.set("Retry-After", String(max(1, retryAfter))) }
        return HTTPError(status: 401, message: message, headers: headers)
    }

    /// `127.0.0.1` of `127.0.0.1:53122`, `::1` of `[::1]:53122`: failures
    /// count per address, not per connection.
    static func hostPart(of remoteAddress: String) -> String {
        if remoteAddress.hasPrefix("["), let close = remoteAddress.firstIndex(of: "]") {
            return String(remoteAddress[remoteAddress.index(after: remoteAddress.startIndex)..<close])
        }
        if let colon = remoteAddress.lastIndex(of: ":") { return String(remoteAddress[..<colon]) }
        return remoteAddress
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
