import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `/api/v1/tokens` and `/api/v1/device-codes`: a phone app signs in
/// without a terminal. (The codes have a path of their own: under
/// `/tokens` they would share `/tokens/{name}` with a token named `codes`.) A person
/// signed in to the web page makes a short code (`POST /device-codes`, as
/// `memoapp token code NAME` does), types it into the app, and the app
/// exchanges it once for a token of its own (`POST /device-codes/exchange`, open
/// to anyone: the code is the credential). The signed-in person lists the
/// tokens and revokes them, as `memoapp token list` and `token revoke` do.
///
/// Managing tokens takes a web session, never a token: a token that could
/// make codes could give its holder a successor the owner never made, so
/// revoking a stolen phone's token would not end the thief's access; and a
/// token that could revoke others would let one stolen phone lock out every
/// other device. The session is the person at the page (or the terminal's
/// `memoapp token`, which needs the data home itself).
extension MemoRoutes {
    static func addTokens(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/tokens", RouteDescription(
            "The API tokens (never the tokens themselves), oldest first, expired ones too; a web session only",
            answers: [Describe.json(200, "the tokens", DocumentSchema.array(DocumentSchema.ref("ApiToken"))),
                      Describe.json(403, "a request with a token, not a web session", DocumentSchema.ref("Error"))]
        )) { request in
            try requireSession(request)
            let tokens = try services.read { try AccessTokens(connection: $0.database()).list() }
            return .json(.array(tokens.map(WireFormat.accessToken)))
        }
        router.route(.delete, "/api/v1/tokens/{name}", RouteDescription(
            "Revoke a token (as memoapp token revoke): refused from its next request on, its event streams ended at once",
            path: [.init("name", tokenName, "the token's name")],
            answers: [Describe.json(200, "the token revoked", DocumentSchema.ref("ApiToken")),
                      Describe.json(403, "a request with a token, not a web session", DocumentSchema.ref("Error")),
                      Describe.json(404, "no token of that name", DocumentSchema.ref("Error"))]
        )) { request in
            try requireSession(request)
            let name = request.parameters["name"] ?? ""
            // A name no token can have names no token: 404, as a path
            // naming no item is (a name that can be one is quoted back).
            guard (try? AccessTokens.validate(name: name)) != nil else {
                throw MemoError(.notFound, en: "no token of that name", ko: "그 이름의 토큰이 없습니다")
            }
            let token = try services.write { try AccessTokens(connection: $0.database()).revoke(name: name) }
            return .json(WireFormat.accessToken(token))
        }
        router.json(.post, "/api/v1/device-codes", RouteDescription(
            "Make a short code a phone app exchanges once for a token named name (as memoapp token code); a web session only",
            headers: [Describe.idempotencyKey],
            body: RouteDescription.Body("application/json", newCodeSchema),
            answers: [Describe.json(201, "the code, shown only now", DocumentSchema.ref("DeviceCode")),
                      Describe.json(403, "a request with a token, not a web session", DocumentSchema.ref("Error")),
                      Describe.json(409, "a token of that name exists, or a code waits for it", DocumentSchema.ref("Error")),
                      Describe.json(422, "a body that is not this object, or a name or lifetime it cannot take",
                                    DocumentSchema.ref("Error"))]
        )) { request, body in
            try requireSession(request)
            return try services.idempotency.perform(request, body: body) {
                let document = try JSONBody.object(body, allowedKeys: Set(newCodeSchema.propertyNames))
                let name = try document.string("name")
                let lifetime = try tokenLifetime(document)
                let made = try services.write { workspace in
                    try DeviceCodes(connection: workspace.database())
                        .create(tokenName: name, tokenLifetime: lifetime, at: services.clock.now())
                }
                return .json(WireFormat.deviceCode(made), status: 201)
            }
        }
        router.json(.post, "/api/v1/device-codes/exchange", RouteDescription(
            "Exchange a code (typed as shown, any case) once for a token: the only time the token is shown",
            body: RouteDescription.Body("application/json", DocumentSchema.object([("code", DocumentSchema.string)])),
            answers: [Describe.json(201, "the token", DocumentSchema.ref("CreatedToken")),
                      Describe.json(401, "no code waiting (used, expired, mistyped, or withdrawn after too many wrong tries)",
                                    DocumentSchema.ref("Error"),
                                    headers: [(name: "Retry-After", schema: DocumentSchema.string, isRequired: false)]),
                      Describe.json(409, "a token of the code's name was made since (the code is kept)",
                                    DocumentSchema.ref("Error")),
                      Describe.json(422, "a body that is not {\"code\": \"…\"}", DocumentSchema.ref("Error"))],
            isPublic: true
        ), bodyLimit: JSONBody.publicLimit) { _, body in
            // Open to anyone, as signing in is: the code is the credential,
            // checked here. A wrong one counts against every waiting code
            // (`DeviceCodes`) and against the server's failure budget.
            let document = try JSONBody.object(body, allowedKeys: ["code"])
            let code = try document.string("code")
            guard let (token, secret) = try services.write({ workspace in
                try DeviceCodes(connection: workspace.database()).exchange(code: code, at: services.clock.now())
            }) else {
                throw Access.failed(Localized(
                    en: "the code is not valid (used, expired, mistyped, or withdrawn after too many wrong tries); make a new one",
                    ko: "코드가 유효하지 않습니다 (사용됨, 만료, 오타, 또는 틀린 시도가 많아 철회됨). 새 코드를 만드세요"), services)
            }
            return .json(WireFormat.createdToken(token, secret: secret), status: 201)
        }
    }

    /// Refuses (403, `session_required`) a request that is not the web
    /// session's: the hook let it through with a valid token, which may
    /// not manage tokens (see above). A request with both is judged by the
    /// token, as everywhere.
    static func requireSession(_ request: Request) throws {
        guard request.headers["Authorization"] != nil || Access.sessionSecret(request) == nil else { return }
        throw APIRefusal(status: 403, code: "session_required", message: Localized(
            en: "tokens are managed by a person signed in to the web page (or with memoapp token), not with a token",
            ko: "토큰은 웹 페이지에 로그인한 사람(또는 memoapp token)이 관리합니다. 토큰으로는 할 수 없습니다"))
    }

    /// `expires_in`: seconds as a number, the command line's words (`30d`),
    /// or absent or null for a token that lasts until it is revoked.
    static func tokenLifetime(_ document: JSONReader) throws -> Double? {
        guard let value = try document.member("expires_in") else { return nil }
        if case .string(let words) = value.value { return try TokenLifetime.seconds(in: words) }
        return try TokenLifetime.checked(value.double())
    }
}

extension MemoRoutes {
    /// What `AccessTokens.validate` takes.
    static let tokenName = Describe.pattern("^[A-Za-z0-9._-]{1,64}$")

    static let newCodeSchema = DocumentSchema.object([
        ("name", tokenName),
        ("expires_in", DocumentSchema.nullable(.object([("anyOf", .array([
            .object([("type", .string("number")), ("minimum", .double(TokenLifetime.minimumSeconds)),
                     ("maximum", .double(TokenLifetime.maximumSeconds))]),
            Describe.pattern("^[ \\t]*[0-9]{1,9}[ \\t]*[^ \\t0-9]+[ \\t]*$"),
        ]))]))),
    ], optional: ["expires_in"])
}
