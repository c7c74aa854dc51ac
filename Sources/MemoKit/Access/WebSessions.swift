import MemoCore
import SQLite

/// Sign-in for the web page: a one-time code (in the fragment of the link a
/// server prints, so it reaches no log and no `Referer`) is exchanged once for
/// a session, whose secret travels only in an HttpOnly cookie. Codes and
/// sessions are stored as their SHA-256, as tokens are: a copy of the
/// database signs nobody in. The CSRF token is derived from the session's
/// secret, so it needs no column and a reload can have it again.
public struct WebSessions {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// The tables, registered in `Schema`. Names are permanent once released.
    public static let migrations: [Migration] = [
        Migration("access.2-web-sessions", sql: """
            CREATE TABLE web_sign_in_codes (
                hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                expires_at REAL NOT NULL
            );
            CREATE TABLE web_sessions (
                id INTEGER PRIMARY KEY,
                hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            """),
    ]

    /// How long a sign-in code may wait for its exchange.
    public static let codeLifetime = 300.0
    /// How long a session lasts from its sign-in.
    public static let sessionLifetime = 30 * 86_400.0
    static let secretLength = 32

    /// A session just begun: the cookie's secret, its CSRF token and its end.
    public struct Session: Sendable, Equatable {
        public let secret: String
        public let csrfToken: String
        public let expiresAt: Timestamp
    }

    /// Makes a sign-in code that works once, within `codeLifetime`, and
    /// removes the codes that have expired.
    public func makeCode(at now: Timestamp) throws -> String {
        let sodium = try LibSodium.loaded()
        let code = AccessTokens.hex(sodium.random(count: WebSessions.secretLength))
        try connection.writeTransaction {
            try connection.execute("DELETE FROM web_sign_in_codes WHERE expires_at <= ?", now.secondsSince1970)
            try connection.execute("INSERT INTO web_sign_in_codes (hash, expires_at) VALUES (?, ?)",
                                   SQLiteValue.blob(sodium.sha256(Array(code.utf8))),
                                   now.secondsSince1970 + WebSessions.codeLifetime)
        }
        return code
    }

    /// Exchanges `code` for a new session, or nil when it is no code, was
    /// used already, or has expired. The code is gone afterwards either way.
    public func exchange(code: String, at now: Timestamp) throws -> Session? {
        guard code.utf8.count == WebSessions.secretLength * 2 else { return nil }
        let sodium = try LibSodium.loaded()
        let digest = sodium.sha256(Array(code.utf8))
        return try connection.writeTransaction {
            let found = try connection.queryFirst("SELECT hash, expires_at FROM web_sign_in_codes WHERE hash = ?",
                                                  SQLiteValue.blob(digest)) { row in (row.blob(0), row.double(1)) }
            guard let (stored, expiresAt) = found, sodium.constantTimeEqual(stored, digest) else { return nil }
            try connection.execute("DELETE FROM web_sign_in_codes WHERE hash = ?", SQLiteValue.blob(digest))
            guard now.secondsSince1970 < expiresAt else { return nil }
            let secret = AccessTokens.hex(sodium.random(count: WebSessions.secretLength))
            let ends = now.secondsSince1970 + WebSessions.sessionLifetime
            try connection.execute("DELETE FROM web_sessions WHERE expires_at <= ?", now.secondsSince1970)
            try connection.execute("INSERT INTO web_sessions (hash, created_at, expires_at) VALUES (?, ?, ?)",
                                   SQLiteValue.blob(sodium.sha256(Array(secret.utf8))), now.secondsSince1970, ends)
            return Session(secret: secret, csrfToken: try WebSessions.csrfToken(for: secret),
                           expiresAt: Timestamp(secondsSince1970: ends))
        }
    }

    /// The live session whose cookie holds `secret`, or nil (unknown, ended
    /// or expired). Reads only.
    public func session(secret: String, at now: Timestamp) throws -> Session? {
        guard secret.utf8.count == WebSessions.secretLength * 2 else { return nil }
        let sodium = try LibSodium.loaded()
        let digest = sodium.sha256(Array(secret.utf8))
        let found = try connection.queryFirst("SELECT hash, expires_at FROM web_sessions WHERE hash = ?",
                                              SQLiteValue.blob(digest)) { row in (row.blob(0), row.double(1)) }
        guard let (stored, expiresAt) = found, sodium.constantTimeEqual(stored, digest),
              now.secondsSince1970 < expiresAt else { return nil }
        return Session(secret: secret, csrfToken: try WebSessions.csrfToken(for: secret),
                       expiresAt: Timestamp(secondsSince1970: expiresAt))
    }

    /// Ends the session whose cookie holds `secret` (signing out).
    public func end(secret: String) throws {
        let digest = try LibSodium.loaded().sha256(Array(secret.utf8))
        try connection.writeTransaction {
            try connection.execute("DELETE FROM web_sessions WHERE hash = ?", SQLiteValue.blob(digest))
        }
    }

    /// The CSRF token of a session: a digest of its secret under a label of
    /// its own, so that the one cannot be told from the other.
    public static func csrfToken(for secret: String) throws -> String {
        AccessTokens.hex(try LibSodium.loaded().sha256(Array("memoapp csrf\u{0}\(secret)".utf8)))
    }

    /// Whether `given` is the CSRF token of `session`, compared in constant time.
    public static func isCSRFToken(_ given: String, of session: Session) throws -> Bool {
        try LibSodium.loaded().constantTimeEqual(Array(given.utf8), Array(session.csrfToken.utf8))
    }
}
