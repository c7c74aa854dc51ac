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
            if let preflight = corsPreflight(request, services) { return preflight }
            guard request.path.starts(with: ["api", "v1"]) else { return nil }
            let route = Array(request.path.dropFirst(2))
            if isPublic(route, request.method) { return nil }
            let isGateOpen = try authenticate(request, services, readingGate: !isUngated(route))
            if !isGateOpen { throw OnboardingGate.closed }
            return nil
        }
    }

    /// Refuses (400) a query item the route does not read, as a JSON body's
    /// unknown key is refused: `limt=5` ignored would leave the client
    /// believing it was heard. What a route reads is what it declares
    /// (`RouteDescription.query`, the same list the API's document shows);
    /// `lang` every route reads (`en` or `ko`, else 400 too).
    static func checkQuery(_ request: Request) throws {
        guard request.path.starts(with: ["api", "v1"]), let route = request.route else { return }
        if let language = request.queryValue("lang"), Language(rawValue: language) == nil {
            throw MemoError(.usage, en: "'lang' must be en or ko", ko: "'lang' 값은 en 또는 ko여야 합니다")
        }
        let known = Set((route.documentation?.query ?? []).map(\.name)).union(["lang"])
        for item in request.query where !known.contains(item.name) {
            let names = known.sorted().joined(separator: ", ")
            throw MemoError(.usage, en: "unknown query parameter '\(item.name)'; this route reads: \(names)",
                            ko: "알 수 없는 쿼리 매개변수 '\(item.name)'; 이 경로가 읽는 것: \(names)")
        }
    }

    /// Routes anyone may call: they reveal nothing but that memoapp runs,
    /// or (signing in, a device code's exchange) check a credential of their own.
    static func isPublic(_ route: [String], _ method: Method) -> Bool {
        route == ["health"] || route == ["openapi.json"] || (route == ["session"] && method == .post)
            || (route == ["device-codes", "exchange"] && method == .post)
    }

    /// Routes that run before the onboarding is completed: the onboarding's
    /// own, signing in and out and sign-in links, the tokens and device
    /// codes (as `memoapp token` does: a phone app may do the onboarding itself, once it has a
    /// token), and the
    /// doctor (as `memoapp doctor` does: a broken home is examined before
    /// anything else).
    static func isUngated(_ route: [String]) -> Bool {
        route.first == "onboarding" || route == ["doctor"] || route.first == "session" || route.first == "tokens"
            || route.first == "device-codes"
    }

    // MARK: - CORS

    /// A browser's preflight (`OPTIONS` with `Origin`) from the one allowed
    /// origin, answered before any credential is asked for (a preflight
    /// carries none). Credentials (the cookie) are never allowed across
    /// origins, so another origin's page can use a Bearer token only.
    static func corsPreflight(_ request: Request, _ services: ServerServices) -> Response? {
        // Scheme and host compare without regard to case; the allowed
        // origin was lower-cased when it was read (`MemoServer.normalizedOrigin`).
        guard request.method == .options, let allowed = services.allowedOrigin,
              request.headers["Origin"]?.lowercased() == allowed else { return nil }
        return Response(status: 204, headers: [
            "Access-Control-Allow-Origin": allowed,
            "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE",
            "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID",
            "Access-Control-Expose-Headers": "ETag, Location, Link, Retry-After, Undo-Step",
            "Access-Control-Max-Age": "600",
            "Vary": "Origin",
        ])
    }

    // MARK: - Host

    /// On a loopback address, only `localhost`, `127.0.0.1`, `[::1]` or the
    /// address the server is bound to, with the server's port, may be named: a page on another site whose name
    /// resolves to 127.0.0.1 (DNS rebinding) names its own host, and gets 421.
    static func checkHost(_ request: Request, _ services: ServerServices) throws {
        guard services.isLoopback else { return }
        // Known once the listening socket's port is: a request in the moment
        // before is refused rather than let past the check.
        guard let allowed = services.loopbackHosts.current else {
            throw HTTPError(status: 503, en: "the server is starting; try again", ko: "서버가 시작하는 중입니다. 다시 시도하세요")
        }
        // `host` is an absolute-form target's authority when there is one.
        guard allowed.contains((request.host ?? "").lowercased()) else {
            throw HTTPError(status: 421, en: "this server answers only to localhost, 127.0.0.1 or [::1] with its port",
                            ko: "이 서버는 포트와 함께 localhost, 127.0.0.1, [::1]로만 응답합니다")
        }
    }

    /// What `checkHost` accepts on `port`.
    static func loopbackHosts(port: UInt16) -> [String] {
        let names = ["localhost", "127.0.0.1", "[::1]"]
        return names.map { "\($0):\(port)" } + (port == 80 ? names : [])
    }

    /// What `checkHost` accepts for a server bound to `address`: the usual
    /// names, and the address itself (`--listen 127.0.0.2:8765` prints
    /// `http://127.0.0.2:8765`, which must not be refused).
    static func loopbackHosts(boundTo address: ListenAddress) -> [String] {
        var hosts = loopbackHosts(port: address.port)
        let own = address.family == .ipv6 ? "[\(address.host)]" : address.host
        if !hosts.contains("\(own):\(address.port)") {
            hosts.append("\(own):\(address.port)")
            if address.port == 80 { hosts.append(own) }
        }
        return hosts
    }

    // MARK: - Credentials

    /// Checks the request's credential: `Authorization: Bearer TOKEN`
    /// against the stored tokens, else the session cookie (and, for a
    /// change, its `X-CSRF-Token`). One indexed read per request, so a
    /// revoked token or an ended session is refused at once. With
    /// `readingGate`, the same read transaction also reads whether the
    /// onboarding is completed (every gated request needs both, and a read
    /// transaction of its own was a tenth of a to-do list's time); returns
    /// whether it is (true without `readingGate`). The credential is judged
    /// first: a wrong one is a 401 whatever the gate. It is always checked,
    /// whatever others failed before: the throttle only words the refusal
    /// of a wrong one (see `AuthenticationThrottle`).
    static func authenticate(_ request: Request, _ services: ServerServices, readingGate: Bool) throws -> Bool {
        if request.headers["Authorization"] == nil, let secret = sessionSecret(request) {
            let (found, isGateOpen) = try services.read { workspace in
                let connection = try workspace.database()
                return (try WebSessions(connection: connection).session(secret: secret, at: services.clock.now()),
                        try !readingGate || OnboardingGate.isCompleted(in: connection))
            }
            guard let session = found else {
                // A signed-out tab's event stream retries with its dead
                // cookie: it must hear this, whatever the budget, so that
                // the page shows the sign-in screen.
                throw failed(Localized(en: "the session has ended; sign in again", ko: "세션이 끝났습니다. 다시 로그인하세요"),
                             services)
            }
            if ![Method.get, .head, .options].contains(request.method) {
                guard let given = request.headers["X-CSRF-Token"], try WebSessions.isCSRFToken(given, of: session) else {
                    throw APIRefusal(status: 403, code: "csrf",
                                     message: Localized(en: "a change made with the session cookie needs its X-CSRF-Token",
                                                        ko: "세션 쿠키로 하는 변경에는 X-CSRF-Token이 필요합니다"))
                }
            }
            let wallNow = services.clock.now()
            if WebSessions.needsRenewal(session, at: wallNow) {
                // Sliding expiry, written at most once an hour; best effort,
                // as a token's last use is.
                services.endRequestReads()
                try? services.pool.write { connection in
                    try WebSessions(connection: connection).renew(digest: session.digest, at: wallNow)
                }
            }
            return isGateOpen
        }
        guard let secret = bearerToken(request.headers["Authorization"]) else {
            throw unauthorized(retryAfter: nil, Localized(en: "this route needs 'Authorization: Bearer TOKEN' (memoapp token create NAME)",
                                                          ko: "이 경로에는 'Authorization: Bearer TOKEN'이 필요합니다 (memoapp token create NAME)"))
        }
        let (found, isGateOpen) = try services.read { workspace in
            let connection = try workspace.database()
            return (try AccessTokens(connection: connection).verify(secret: secret, at: services.clock.now()),
                    try !readingGate || OnboardingGate.isCompleted(in: connection))
        }
        guard let (token, digest) = found else {
            throw failed(Localized(en: "the token is not valid (revoked, expired or mistyped)",
                                   ko: "토큰이 유효하지 않습니다 (폐기, 만료 또는 잘못 입력됨)"), services)
        }
        let wallNow = services.clock.now()
        if AccessTokens.needsUseRecorded(token, at: wallNow) {
            // Best effort: a busy writer must not fail the request it is about.
            // (Not `services.write`: nothing the event feed tells of changed.)
            services.endRequestReads()
            try? services.pool.write { connection in
                try AccessTokens(connection: connection).recordUse(digest: digest, at: wallNow)
            }
        }
        return isGateOpen
    }

    /// Who a request is, by the credential the hook judges it by: the
    /// SHA-256 of its Bearer token or of its session cookie's secret, as
    /// the database stores them (`t:HEX` or `s:HEX`). Read from the headers
    /// with the hook's own precedence (a token wins over the cookie), so a
    /// route that runs after the hook knows whose request it is without
    /// another read: idempotency keys are scoped by it (`bearer` and
    /// `Bearer` are one client), and an event stream is ended by it when its
    /// credential is revoked (`ChangeFeed.endStreamsOfRevokedCredentials`).
    /// Nil when the request carries neither.
    static func credentialIdentity(_ request: Request) -> String? {
        if let header = request.headers["Authorization"] {
            guard let secret = bearerToken(header), let digest = try? SHA256Digest.of(Array(secret.utf8)) else { return nil }
            return "t:" + AccessTokens.hex(digest)
        }
        guard let secret = sessionSecret(request), let digest = try? SHA256Digest.of(Array(secret.utf8)) else { return nil }
        return "s:" + AccessTokens.hex(digest)
    }

    /// The name of the web app's session cookie.
    static let sessionCookie = "memoapp_session"

    /// The session cookie's value, if the request carries one.
    static func sessionSecret(_ request: Request) -> String? {
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: " \t") == sessionCookie {
                    return parts[1].trimmingCharacters(in: " \t")
                }
            }
        }
        return nil
    }

    /// The token of an `Authorization: Bearer …` value (scheme in any case).
    static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        // Read as bytes, the two words found in place: every request comes
        // here, and splitting into an array of pieces (before that, into
        // Characters, lowercasing a copy) showed in perf. Words are runs
        // between spaces, however many.
        let bytes = value.utf8
        var scheme: Range<String.Index>?
        var token: Range<String.Index>?
        var index = bytes.startIndex
        while index != bytes.endIndex {
            guard bytes[index] != UInt8(ascii: " ") else {
                index = bytes.index(after: index)
                continue
            }
            let start = index
            while index != bytes.endIndex && bytes[index] != UInt8(ascii: " ") { index = bytes.index(after: index) }
            if scheme == nil {
                scheme = start..<index
            } else if token == nil {
                token = start..<index
            } else {
                return nil
            }
        }
        guard let scheme, let token, bytes[scheme].count == 6,
              zip(bytes[scheme], "bearer".utf8).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
        return String(value[token])
    }

    static func unauthorized(retryAfter: Int?, _ message: Localized) -> HTTPError {
        var headers: Headers = ["WWW-Authenticate": "Bearer realm=\"memoapp\""]
        if let retryAfter { headers.set("Retry-After", String(max(1, retryAfter))) }
        return HTTPError(status: 401, message: message, headers: headers)
    }

    /// The 401 for a credential that was checked and is wrong, counted
    /// against the throttle's budget; once that is spent, the answer also
    /// says how long to wait (`Retry-After`).
    static func failed(_ reason: Localized, _ services: ServerServices) -> HTTPError {
        guard let wait = services.throttle.recordFailure(now: monotonicSeconds()) else {
            return unauthorized(retryAfter: nil, reason)
        }
        let seconds = max(1, Int(wait.rounded(.up)))
        return unauthorized(retryAfter: seconds, Localized(
            en: reason.en + "; too many failed attempts on this server, try again in \(seconds) s",
            ko: reason.ko + ". 이 서버에서 실패한 시도가 너무 많습니다. \(seconds)초 뒤에 다시 시도하세요"))
    }

    static func monotonicSeconds() -> Double {
        MonotonicTime.now().seconds
    }
}
