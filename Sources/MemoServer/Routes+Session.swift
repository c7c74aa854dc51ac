import HTTPServer
import MemoCore
import MemoKit

/// The web page's sign-in (docs/api.md, "Access"): `POST /api/v1/session`
/// exchanges a one-time code for the `memoapp_session` cookie (HttpOnly,
/// SameSite=Strict) and the CSRF token that every changing request with that
/// cookie must carry; `GET` gives the token again; `DELETE` signs out.
extension MemoRoutes {
    static let sessionCookie = "memoapp_session"

    static func addSession(to router: inout Router, _ services: ServerServices) {
        router.collect(.post, "/api/v1/session", bodyLimit: JSONBody.limit) { request, body in
            let document = try JSONBody.object(body, allowedKeys: ["code"])
            let code = try document.string("code")
            let address = Access.hostPart(of: request.remoteAddress)
            let now = Access.monotonicSeconds()
            if let wait = services.throttle.remainingDelay(for: address, now: now) {
                throw HTTPError(status: 401, en: "too many failed attempts from this address; try again in \(Int(wait.rounded(.up))) s",
                                ko: "이 주소에서 실패한 시도가 너무 많습니다. \(Int(wait.rounded(.up)))초 뒤에 다시 시도하세요",
                                headers: ["Retry-After": String(max(1, Int(wait.rounded(.up))))])
            }
            let session = try services.write { workspace in
                try WebSessions(connection: workspace.database()).exchange(code: code, at: workspace.clock.now())
            }
            guard let session else {
                services.throttle.recordFailure(from: address, now: now)
                throw HTTPError(status: 401, en: "this sign-in link was used already or has expired; 'memoapp token link' makes a new one",
                                ko: "이미 사용했거나 만료된 로그인 링크입니다. 'memoapp token link'로 새 링크를 만드세요")
            }
            services.throttle.recordSuccess(from: address)
            var response = Response.json(.object([("csrf_token", .string(session.csrfToken)), ("expires_at", .time(session.expiresAt))]))
            response.headers.add("Set-Cookie", cookie(session.secret, maxAge: Int(WebSessions.sessionLifetime), services))
            return response
        }
        router.route(.get, "/api/v1/session") { request in
            if let secret = sessionSecret(request),
               let session = try services.read({ try WebSessions(connection: $0.database()).session(secret: secret, at: $0.clock.now()) }) {
                return .json(.object([("kind", .string("session")), ("name", .null), ("csrf_token", .string(session.csrfToken))]))
            }
            let name = try Access.bearerToken(request.headers["Authorization"]).flatMap { secret in
                try services.read { try AccessTokens(connection: $0.database()).verify(secret: secret)?.token.name }
            }
            return .json(.object([("kind", .string("token")), ("name", name.map(JSON.string) ?? .null), ("csrf_token", .null)]))
        }
        router.route(.delete, "/api/v1/session") { request in
            if let secret = sessionSecret(request) {
                try services.write { try WebSessions(connection: $0.database()).end(secret: secret) }
            }
            var response = Response(status: 204)
            response.headers.add("Set-Cookie", cookie("", maxAge: 0, services))
            return response
        }
    }

    static func cookie(_ value: String, maxAge: Int, _ services: ServerServices) -> String {
        "\(sessionCookie)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (services.usesTLS ? "; Secure" : "")
    }

    /// The session cookie's value, if the request has one.
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
}

/// A refusal with an error code of its own (`csrf`), not the one its status
/// would give.
struct CodedRefusal: Error {
    let status: Int
    let code: String
    let message: Localized
}
