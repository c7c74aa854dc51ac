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
    /// How long a session lives after its last use, in seconds: a week,
    /// renewed on use (sliding). It was 30 days from sign-in, which left a
    /// stolen or forgotten session good for a month.
    public static let sessionLifetime = 7 * 86400.0
    /// A use renews a session only when its expiry is this far (seconds)
    /// from a full lifetime ahead: at most one write an hour per session,
    /// so that reading does not mean writing at every request.
    public static let renewalResolution = 3600.0

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
        /// What `memoapp token sessions` shows and `token end-session` takes
        /// (see `id(ofDigest:)`).
        public let id: String
        public let expiresAt: Timestamp
        /// What a page sends back in `X-CSRF-Token` with every change.
        public let csrfToken: String
        /// The stored digest of its secret.
        public let digest: [UInt8]
    }

    /// A session as `memoapp token sessions` lists it: never its secret.
    public struct Listed: Sendable, Equatable {
        public let id: String
        public let createdAt: Timestamp
        public let expiresAt: Timestamp
    }

    /// A session's id: the first 12 hex digits of its stored digest. The
    /// table has no other key (its secret's digest is the key), and the
    /// digest is no credential (the secret is), so its start names a
    /// session safely; 48 bits keep a collision between the few sessions a
    /// person has out of reach.
    public static func id(ofDigest digest: [UInt8]) -> String {
        String(AccessTokens.hex(digest).prefix(12))
    }

    /// A sign-in code and the moment it stops being one.
    public struct SignInCode {
        public let code: String
        public let expiresAt: Timestamp
    }

    /// A new sign-in code, valid for `codeLifetime` from `now`; expired
    /// codes are removed in the same transaction.
    public func createCode(at now: Timestamp) throws -> SignInCode {
        let sodium = try LibSodium.loaded()
        let code = AccessTokens.hex(sodium.random(count: 32))
        let expiresAt = Timestamp(secondsSince1970: now.secondsSince1970 + WebSessions.codeLifetime)
        try connection.writeTransaction {
            try connection.execute("DELETE FROM api_sign_in_codes WHERE expires_at <= ?", now.secondsSince1970)
            try connection.execute("INSERT INTO api_sign_in_codes (hash, expires_at) VALUES (?, ?)",
                                   SQLiteValue.blob(sodium.sha256(Array(code.utf8))), expiresAt.secondsSince1970)
        }
        return SignInCode(code: code, expiresAt: expiresAt)
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
            let digest = sodium.sha256(Array(secret.utf8))
            return (Session(id: WebSessions.id(ofDigest: digest), expiresAt: Timestamp(secondsSince1970: expiresAt),
                            csrfToken: try WebSessions.csrf(for: secret), digest: digest),
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
        return Session(id: WebSessions.id(ofDigest: digest), expiresAt: Timestamp(secondsSince1970: expiry),
                       csrfToken: try WebSessions.csrf(for: secret), digest: digest)
    }

    /// Whether a use at `now` should renew `session`: its expiry is an
    /// hour or more short of a full lifetime ahead, or (a session made when
    /// they lasted 30 days, or a clock set back) beyond it.
    public static func needsRenewal(_ session: Session, at now: Timestamp) -> Bool {
        let full = now.secondsSince1970 + sessionLifetime
        let expiry = session.expiresAt.secondsSince1970
        return expiry <= full - renewalResolution || expiry > full
    }

    /// Moves the expiry of the live session with `digest` to a full
    /// lifetime from `now` (an ended or expired one stays ended).
    public func renew(digest: [UInt8], at now: Timestamp) throws {
        try connection.writeTransaction {
            try connection.execute("UPDATE api_sessions SET expires_at = ? WHERE hash = ? AND expires_at > ?",
                                   now.secondsSince1970 + WebSessions.sessionLifetime, SQLiteValue.blob(digest),
                                   now.secondsSince1970)
        }
    }

    /// Whether the session with `digest` is live at `now`: a running server
    /// asks this of the sessions its open event streams were opened with.
    public func isLive(digest: [UInt8], at now: Timestamp) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM api_sessions WHERE hash = ? AND expires_at > ?",
                                  SQLiteValue.blob(digest), now.secondsSince1970) { _ in true } ?? false
    }

    /// The live sessions at `now`, the newest first.
    public func list(at now: Timestamp) throws -> [Listed] {
        try connection.query("""
            SELECT hash, created_at, expires_at FROM api_sessions WHERE expires_at > ?
            ORDER BY created_at DESC, hash
            """, now.secondsSince1970) { row in
            Listed(id: WebSessions.id(ofDigest: row.blob(0)), createdAt: Timestamp(secondsSince1970: row.double(1)),
                   expiresAt: Timestamp(secondsSince1970: row.double(2)))
        }
    }

    /// Ends the session `id` (as `list` shows it); a running server refuses
    /// its cookie from its next request and ends its event streams.
    /// - Throws: `.usage` for an id that is not 12 hex digits, `.notFound`
    ///   when no session (live or expired) has it.
    @discardableResult
    public func end(id: String) throws -> Listed {
        let shown = String(id.unicodeScalars.prefix(40).map { $0.isASCII && $0.properties.generalCategory != .control
            ? Character($0) : "?" })
        guard id.utf8.count == 12, let prefix = AccessTokens.bytes(hex: Substring(id)) else {
            throw MemoError(.usage, en: "a session id is 12 hex digits, as 'memoapp token sessions' shows it, not '\(shown)'",
                            ko: "세션 ID는 'memoapp token sessions'에 나오는 16진수 12자리입니다('\(shown)')")
        }
        return try connection.writeTransaction {
            // The key starts with those 6 bytes: a range of the primary key.
            let low = prefix + [UInt8](repeating: 0, count: 26)
            let high = prefix + [UInt8](repeating: 0xFF, count: 26)
            let found = try connection.queryFirst(
                "SELECT hash, created_at, expires_at FROM api_sessions WHERE hash BETWEEN ? AND ?",
                SQLiteValue.blob(low), SQLiteValue.blob(high)
            ) { row in
                Listed(id: WebSessions.id(ofDigest: row.blob(0)), createdAt: Timestamp(secondsSince1970: row.double(1)),
                       expiresAt: Timestamp(secondsSince1970: row.double(2)))
            }
            guard let session = found else {
                throw MemoError(.notFound, en: "no session '\(id)'", ko: "'\(id)' 세션이 없습니다")
            }
            try connection.execute("DELETE FROM api_sessions WHERE hash BETWEEN ? AND ?",
                                   SQLiteValue.blob(low), SQLiteValue.blob(high))
            return session
        }
    }

    /// Ends every session; how many were live at `now`.
    @discardableResult
    public func endAll(at now: Timestamp) throws -> Int {
        try connection.writeTransaction {
            let live = try list(at: now).count
            try connection.execute("DELETE FROM api_sessions")
            return live
        }
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
