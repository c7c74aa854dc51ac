import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `/api/v1/session`: the web app's sign-in (see `WebSessions`).
extension MemoRoutes {
    static func addSession(to router: inout Router, _ services: ServerServices) {
        router.json(.post, "/api/v1/session", RouteDescription(
            "Exchange a sign-in code for a session cookie (memoapp_session) and its CSRF token",
            body: RouteDescription.Body("application/json", DocumentSchema.object([("code", DocumentSchema.string)])),
            answers: [Describe.json(200, "signed in", signInSchema,
                                    headers: [(name: "Set-Cookie", schema: DocumentSchema.string, isRequired: true)]),
                      Describe.json(401, "a code that is not valid (used, expired or mistyped)", DocumentSchema.ref("Error"),
                                    headers: [(name: "Retry-After", schema: DocumentSchema.string, isRequired: false)]),
                      Describe.json(422, "a body that is not {\"code\": \"…\"}", DocumentSchema.ref("Error"))],
            isPublic: true
        ), bodyLimit: JSONBody.publicLimit) { request, body in
            // Signing in is open to anyone, so the hook checks no credential:
            // the code is the credential, checked here, always (a good code
            // is never refused for others' failures; see AuthenticationThrottle).
            let document = try JSONBody.object(body, allowedKeys: ["code"])
            let code = try document.string("code")
            let now = services.clock.now()
            guard let (session, secret) = try services.write({ workspace in
                try WebSessions(connection: workspace.database()).signIn(code: code, at: now)
            }) else {
                // Counted like a wrong token, against the same budget.
                throw Access.failed(Localized(
                    en: "the sign-in code is not valid (used, expired or mistyped); ask for a new link: memoapp token link",
                    ko: "로그인 코드가 유효하지 않습니다 (사용됨, 만료 또는 오타). 새 링크를 받으세요: memoapp token link"), services)
            }
            var response = Response.json(.object([("csrf_token", .string(session.csrfToken)),
                                                  ("expires_at", .time(session.expiresAt))]))
            response.headers.add("Set-Cookie", cookie(secret, maxAge: nil, services))
            return response
        }
        router.route(.get, "/api/v1/session", RouteDescription(
            "Who is asking; the CSRF token only when the request carried it",
            headers: [.init("X-CSRF-Token", DocumentSchema.string, "the token the page kept")],
            answers: [Describe.json(200, "the credential", sessionSchema)]
        )) { request in
            if let secret = Access.sessionSecret(request), request.headers["Authorization"] == nil {
                let session = try services.read { workspace in
                    try WebSessions(connection: workspace.database()).session(secret: secret, at: services.clock.now())
                }
                // The CSRF token is never given for the cookie alone (issue
                // 29, finding 2): cookies ignore ports, so any server on
                // another port of this host receives the cookie, and with
                // the token from here it could make changes too. The page
                // keeps the token from its sign-in (in memory, and in
                // sessionStorage, which is per origin, port included) and
                // sends it here after a reload to learn that it still
                // holds: it comes back only when the request already has it.
                let given = request.headers["X-CSRF-Token"]
                let confirmed = try session.flatMap { session in
                    try given.map { try WebSessions.isCSRFToken($0, of: session) } == true ? session.csrfToken : nil
                }
                return .json(.object([("kind", .string("session")), ("name", .null),
                                      ("id", .optional(session?.id)),
                                      ("csrf_token", .optional(confirmed)),
                                      ("expires_at", .optional(session?.expiresAt))]))
            }
            let token = try Access.bearerToken(request.headers["Authorization"]).flatMap { secret in
                try services.read { try AccessTokens(connection: $0.database()).verify(secret: secret, at: services.clock.now()) }
            }
            return .json(.object([("kind", .string("token")), ("name", .optional(token?.token.name)), ("id", .null),
                                  ("csrf_token", .null), ("expires_at", .null)]))
        }
        router.action("/api/v1/session/links", services, RouteDescription(
            "Make a sign-in code for another device (as memoapp token link): it works once, within 5 minutes; a web session only",
            headers: [Describe.idempotencyKey],
            answers: [Describe.json(201, "the code; the link is the page's address with #code=CODE", signInLinkSchema),
                      Describe.json(403, "a request with a token, not a web session", DocumentSchema.ref("Error"))]
        )) { request in
            // A signed-in page gives a phone its way in without a terminal
            // (issue 30, item 7). A session only, as the tokens are managed:
            // a stolen token that could make sign-in codes could give its
            // holder a session that outlives its revocation. The page builds
            // the link from its own address: the server cannot know which of
            // its names the other device reaches it by.
            try requireSession(request)
            let now = services.clock.now()
            let made = try services.write { try WebSessions(connection: $0.database()).createCode(at: now) }
            return .json(.object([("code", .string(made.code)), ("expires_at", .time(made.expiresAt))]), status: 201)
        }
        router.route(.delete, "/api/v1/session", RouteDescription(
            "Sign out: ends the web session of the cookie",
            answers: [RouteDescription.Answer(204, "signed out"),
                      Describe.json(409, "a token is not a session: it is revoked with memoapp token revoke",
                                    DocumentSchema.ref("Error"))]
        )) { request in
            // A token is judged by itself, as every request with one is, and
            // it is no session: a 204 that left it working told a client it
            // had signed out when nothing had ended.
            if request.headers["Authorization"] != nil {
                throw MemoError(.invalidState,
                                en: "a token is not a web session; revoke it with: memoapp token revoke NAME",
                                ko: "토큰은 웹 세션이 아닙니다. 이렇게 폐기하세요: memoapp token revoke 이름")
            }
            var response = Response(status: 204)
            if let secret = Access.sessionSecret(request) {
                try services.write { try WebSessions(connection: $0.database()).signOut(secret: secret) }
                response.headers.add("Set-Cookie", cookie("", maxAge: 0, services))
            }
            return response
        }
    }

    /// The session cookie: never readable by a page's script, never sent by
    /// another site's page, only over TLS when the server has it. Without
    /// `Max-Age` it lasts as long as the browser runs: the session's expiry
    /// slides on use in the database (`WebSessions.sessionLifetime`), which
    /// a Max-Age fixed at sign-in would cut short, and the page cannot use
    /// the cookie without the CSRF token kept in the tab's sessionStorage,
    /// which lasts no longer. (`maxAge: 0` removes it, signing out.)
    static func cookie(_ value: String, maxAge: Int?, _ services: ServerServices) -> String {
        "\(Access.sessionCookie)=\(value); Path=/" + (maxAge.map { "; Max-Age=\($0)" } ?? "") + "; HttpOnly; SameSite=Strict"
            + (services.usesTLS ? "; Secure" : "")
    }
}

extension MemoRoutes {
    static let signInSchema = DocumentSchema.object([("csrf_token", DocumentSchema.string),
                                                     ("expires_at", DocumentSchema.time)])
    static let signInLinkSchema = DocumentSchema.object([("code", DocumentSchema.string),
                                                         ("expires_at", DocumentSchema.time)])
    static let sessionSchema = DocumentSchema.object([
        ("kind", DocumentSchema.choice(["session", "token"])), ("name", DocumentSchema.nullable(DocumentSchema.string)),
        ("id", DocumentSchema.nullable(DocumentSchema.string)), ("csrf_token", DocumentSchema.nullable(DocumentSchema.string)),
        ("expires_at", DocumentSchema.nullable(DocumentSchema.time)),
    ])
}
