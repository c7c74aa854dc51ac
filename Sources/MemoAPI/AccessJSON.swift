import MemoCore
import MemoKit

extension WireFormat {
    /// An API token as listed: `{"name", "created_at", "last_used_at",
    /// "expires_at"}`, never the token (`expires_at` null: until revoked).
    public static func accessToken(_ token: AccessToken) -> JSON {
        .object([("name", .string(token.name)), ("created_at", .time(token.createdAt)),
                 ("last_used_at", .optional(token.lastUsedAt)), ("expires_at", .optional(token.expiresAt))])
    }

    /// A token just made: `{"name", "token", "created_at", "expires_at"}`,
    /// the only time the token is shown (`token create`, and a device code's
    /// exchange over the API).
    public static func createdToken(_ token: AccessToken, secret: String) -> JSON {
        .object([("name", .string(token.name)), ("token", .string(secret)), ("created_at", .time(token.createdAt)),
                 ("expires_at", .optional(token.expiresAt))])
    }

    /// A device code just made: `{"code", "name", "expires_at",
    /// "token_lifetime"}`: the code (the only time it is shown), the name of
    /// the token it becomes, when the code stops working, and the seconds
    /// the token will last (null: until revoked).
    public static func deviceCode(_ made: DeviceCodes.Made) -> JSON {
        .object([("code", .string(made.code)), ("name", .string(made.tokenName)), ("expires_at", .time(made.expiresAt)),
                 ("token_lifetime", made.tokenLifetime.map { .double($0) } ?? .null)])
    }
}

extension WireFormat {
    /// A web session as listed: `{"id", "created_at", "expires_at"}`, never
    /// its secret (the id is the start of the secret's stored digest).
    public static func webSession(_ session: WebSessions.Listed) -> JSON {
        .object([("id", .string(session.id)), ("created_at", .time(session.createdAt)),
                 ("expires_at", .time(session.expiresAt))])
    }
}
