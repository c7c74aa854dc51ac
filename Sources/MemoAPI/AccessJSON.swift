import MemoCore
import MemoKit

extension WireFormat {
    /// An API token as listed: `{"name", "created_at", "last_used_at"}`, never the token.
    public static func accessToken(_ token: AccessToken) -> JSON {
        .object([("name", .string(token.name)), ("created_at", .time(token.createdAt)),
                 ("last_used_at", .optional(token.lastUsedAt))])
    }

    /// A token just made: `{"name", "token", "created_at"}`, the only time the token is shown.
    public static func createdToken(_ token: AccessToken, secret: String) -> JSON {
        .object([("name", .string(token.name)), ("token", .string(secret)), ("created_at", .time(token.createdAt))])
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
