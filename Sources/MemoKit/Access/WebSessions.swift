import MemoCore
import SQLite

/// Sign-in for the web app: a short-lived, single-use code (printed by
/// `memoapp serve` and `memoapp token link` in a link whose fragment never
/// reaches a log) exchanged for a session, whose secret travels in an
/// HttpOnly cookie. Both are stored only as SHA-256 digests, so a copy of the
/// database signs no one in; a session's CSRF token is derived from its
/// secret, so nothing more is stored for it.
public struct WebSessions {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// How long a sign-in code lives, in seconds.
    public static let codeLifetime = 5 * 60.0
    /// How long a session lives, in seconds.
    public static let sessionLifetime = 30 * 86400.0

    public static let migrations: [Migration] = [
        Migration("access.2-web-sessions", sql: """
            CREATE TABLE api_sign_in_codes (
                hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                expires_at REAL NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE api_sessions (
                hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) WITHOUT ROWID;
            """),
    ]

    /// A session as the server sees it.
    public struct Session: Sendable, Equatable {
        public let expiresAt: Timestamp
        /// What a page sends back in `X-CSRF-Token` with every change.
        public let csrfToken: String
    }

    /// A new sign-in code, valid for `codeLifetime` from `now`; expired
    /// codes are removed in the same transaction.
    public func createCode(at now: Timestamp) throws -> String {
        let sodium = try LibSodium.loaded()
        let code = AccessTokens.hex(sodium.random(count: 32))
        try connection.writeTransaction {
            try connection.execute("DELETE FROM api_sign_in_codes WHERE expires_at <= ?", now.secondsSince1970)
            try connection.execute("INSERT INTO api_sign_in_codes (hash, expires_at) VALUES (?, ?)",
                                   SQLiteValue.blob(sodium.sha256(Array(code.utf8))),
                                   now.secondsSince1970 + WebSessions.codeLifetime)
        }
        return code
    }

    /// Exchanges a code (used up here, whether or not it had expired) for a
    /// new session and its secret; nil when the code is no valid code.
    public func signIn(code: String, at now: Timestamp) throws -> (session: Session, secret: String)? {
        guard code.utf8.count == 64 else { return nil }
        let sodium = try LibSodium.loaded()
        let digest = sodium.sha256(Array(code.utf8))
        return try connection.writeTransaction { () -> (Session, String)? in
            let expiry = try connection.queryFirst("SELECT expires_at FROM api_sign_in_codes WHERE hash = ?",
                                                   SQLiteValue.blob(digest)) { $0.double(0) }
            try connection.execute("DELETE FROM api_sign_in_codes WHERE hash = ?", SQLiteValue.blob(digest))
            guard let expiry, now.secondsSince1970 < expiry else { return nil }
            let secret = AccessTokens.hex(sodium.random(count: 32))
            let expiresAt = now.secondsSince1970 + WebSessions.sessionLifetime
            try connection.execute("INSERT INTO api_sessions (hash, created_at, expires_at) VALUES (?, ?, ?)",
                                   SQLiteValue.blob(sodium.sha256(Array(secret.utf8))), now.secondsSince1970, expiresAt)
            return (Session(expiresAt: Timestamp(secondsSince1970: expiresAt), csrfToken: try WebSessions.csrf(for: secret)),
                    secret)
        }
    }

    /// The live session whose secret is `secret`, or nil. Reads only.
    public func session(secret: String, at now: Timestamp) throws -> Session? {
        guard secret.utf8.count == 64 else { return nil }
        let sodium = try LibSodium.loaded()
        let digest = sodium.sha256(Array(secret.utf8))
        let found = try connection.queryFirst("SELECT hash, expires_at FROM api_sessions WHERE hash = ?",
                                              SQLiteValue.blob(digest)) { ($0.blob(0), $0.double(1)) }
        guard let (stored, expiry) = found, sodium.constantTimeEqual(stored, digest),
              now.secondsSince1970 < expiry else { return nil }
        return Session(expiresAt: Timestamp(secondsSince1970: expiry), csrfToken: try WebSessions.csrf(for: secret))
    }

    /// Ends the session whose secret is `secret` (signing out); nothing when there is none.
    public func signOut(secret: String) throws {
        let digest = try LibSodium.loaded().sha256(Array(secret.utf8))
        try connection.writeTransaction {
            try connection.execute("DELETE FROM api_sessions WHERE hash = ?", SQLiteValue.blob(digest))
        }
    }

    /// Whether `given` is the session's CSRF token, compared in constant time.
    public static func isCSRFToken(_ given: String, of session: Session) throws -> Bool {
        try LibSodium.loaded().constantTimeEqual(Array(given.utf8), Array(session.csrfToken.utf8))
    }

    /// The CSRF token of a session: a digest of its secret under a label of
    /// its own, so that it reveals nothing of the secret (which a page's
    /// script never sees: the cookie is HttpOnly).
    static func csrf(for secret: String) throws -> String {
        AccessTokens.hex(try LibSodium.loaded().sha256(Array(("memoapp csrf:" + secret).utf8)))
    }
}
