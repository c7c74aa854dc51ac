import MemoCore
import SQLite

/// One API token as `token list` shows it: never the token itself, which is
/// stored only as its SHA-256.
public struct AccessToken: Sendable, Equatable {
    public let name: String
    public let createdAt: Timestamp
    public let lastUsedAt: Timestamp?
    /// When it stops being accepted; nil: until it is revoked.
    public let expiresAt: Timestamp?

    /// Whether it is refused at `now` for having expired.
    public func hasExpired(at now: Timestamp) -> Bool {
        expiresAt.map { now >= $0 } ?? false
    }
}

/// API tokens for programs that use the HTTP API: made, listed, revoked and
/// checked. A token is 32 random bytes from the kernel, shown once as 64 hex
/// digits; the database keeps its SHA-256 only, so a copy of the database (a
/// backup) cannot be used to sign in. A check looks the digest up in the
/// unique index, then compares it in constant time.
public struct AccessTokens {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// The tables, registered in `Schema`. Names are permanent once released.
    public static let migrations: [Migration] = [
        Migration("access.1-api-tokens", sql: """
            CREATE TABLE api_tokens (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
                hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
                created_at REAL NOT NULL,
                last_used_at REAL
            );
            """),
        // A token may carry an expiry (a phone's, made for a month): an
        // expired one is refused as a revoked one is, and stays listed
        // (as expired) until it is revoked, so its name is not taken over
        // silently. NULL: until revoked, as every token made before.
        Migration("access.3-token-expiry", sql: "ALTER TABLE api_tokens ADD COLUMN expires_at REAL;"),
    ]

    /// Bytes of randomness in a token.
    static let secretLength = 32
    /// How stale `last_used_at` may get before a use writes it again: a
    /// write per request would serialise every reader behind the writer.
    static let lastUseResolution = 60.0

    /// Makes a token named `name` and returns it with the secret, which is
    /// nowhere else from then on. With a `lifetime` (seconds, see
    /// `TokenLifetime`) it is refused from `now + lifetime` on.
    /// - Throws: `.usage` for a name that is empty, too long or has
    ///   characters outside letters, digits, `-`, `_`, `.`; `.duplicate` when
    ///   a token has that name.
    public func create(name: String, lifetime: Double? = nil, at now: Timestamp) throws -> (token: AccessToken, secret: String) {
        try AccessTokens.validate(name: name)
        return try connection.writeTransaction { try insert(name: name, lifetime: lifetime, at: now) }
    }

    /// `create`'s insert, inside a write transaction of the caller's (a
    /// device code's exchange makes its token in the transaction that uses
    /// the code up).
    func insert(name: String, lifetime: Double?, at now: Timestamp) throws -> (token: AccessToken, secret: String) {
        let sodium = try LibSodium.loaded()
        let secret = AccessTokens.hex(sodium.random(count: AccessTokens.secretLength))
        let hash = sodium.sha256(Array(secret.utf8))
        let expiresAt = lifetime.map { now.adding(seconds: $0) }
        do {
            try connection.execute("INSERT INTO api_tokens (name, hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
                                   name, SQLiteValue.blob(hash), now.secondsSince1970,
                                   expiresAt?.secondsSince1970)
        } catch let error as SQLiteError where error.isUniqueViolation(table: "api_tokens", column: "name") {
            throw AccessTokens.duplicate(name)
        }
        return (AccessToken(name: name, createdAt: now, lastUsedAt: nil, expiresAt: expiresAt), secret)
    }

    static func duplicate(_ name: String) -> MemoError {
        MemoError(.duplicate, en: "a token named '\(name)' already exists; revoke it first",
                  ko: "'\(name)' 이름의 토큰이 이미 있습니다. 먼저 폐기하세요")
    }

    /// Every token, oldest first, expired ones too.
    public func list() throws -> [AccessToken] {
        try connection.query("SELECT name, created_at, last_used_at, expires_at FROM api_tokens ORDER BY id") { row in
            AccessToken(name: row.string(0), createdAt: Timestamp(secondsSince1970: row.double(1)),
                        lastUsedAt: row.optionalDouble(2).map { Timestamp(secondsSince1970: $0) },
                        expiresAt: row.optionalDouble(3).map { Timestamp(secondsSince1970: $0) })
        }
    }

    /// Whether a token named `name` exists (expired or not).
    public func contains(name: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM api_tokens WHERE name = ?", name) { _ in true } ?? false
    }

    /// Removes the token `name`; a server refuses it from its next request.
    /// - Throws: `.notFound` when there is none.
    @discardableResult
    public func revoke(name: String) throws -> AccessToken {
        try AccessTokens.validate(name: name)
        return try connection.writeTransaction {
            guard let token = try list().first(where: { $0.name == name }) else {
                throw MemoError(.notFound, en: "no token named '\(name)'", ko: "'\(name)' 이름의 토큰이 없습니다")
            }
            try connection.execute("DELETE FROM api_tokens WHERE name = ?", name)
            return token
        }
    }

    /// The token `secret` is, or nil when it is no token at `now` (revoked,
    /// expired, mistyped). Reads only, so it runs on a reader;
    /// `needsUseRecorded` says whether its last use is old enough to be
    /// written again (`recordUse`).
    public func verify(secret: String, at now: Timestamp) throws -> (token: AccessToken, digest: [UInt8])? {
        guard secret.utf8.count == AccessTokens.secretLength * 2 else { return nil }
        let sodium = try LibSodium.loaded()
        let digest = sodium.sha256(Array(secret.utf8))
        let row = try connection.queryFirst(
            "SELECT name, created_at, last_used_at, expires_at, hash FROM api_tokens WHERE hash = ?", SQLiteValue.blob(digest)
        ) { row in
            (AccessToken(name: row.string(0), createdAt: Timestamp(secondsSince1970: row.double(1)),
                         lastUsedAt: row.optionalDouble(2).map { Timestamp(secondsSince1970: $0) },
                         expiresAt: row.optionalDouble(3).map { Timestamp(secondsSince1970: $0) }), row.blob(4))
        }
        guard let (token, stored) = row, sodium.constantTimeEqual(stored, digest), !token.hasExpired(at: now) else {
            return nil
        }
        return (token, digest)
    }

    /// Whether a token whose SHA-256 is `digest` is accepted at `now` (not
    /// revoked, not expired): a running server asks this of the credentials
    /// its open event streams were opened with, which it knows by their
    /// digests only.
    public func isLive(digest: [UInt8], at now: Timestamp) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM api_tokens WHERE hash = ? AND (expires_at IS NULL OR expires_at > ?)",
                                  SQLiteValue.blob(digest), now.secondsSince1970) { _ in true } ?? false
    }

    /// Whether a use at `now` should be written (the stored one is older
    /// than a minute, or there is none).
    public static func needsUseRecorded(_ token: AccessToken, at now: Timestamp) -> Bool {
        guard let last = token.lastUsedAt else { return true }
        return now.secondsSince1970 - last.secondsSince1970 >= lastUseResolution
            || now.secondsSince1970 < last.secondsSince1970
    }

    /// Stores `now` as the last use of the token with `digest`.
    public func recordUse(digest: [UInt8], at now: Timestamp) throws {
        try connection.writeTransaction {
            try connection.execute("UPDATE api_tokens SET last_used_at = ? WHERE hash = ?",
                                   now.secondsSince1970, SQLiteValue.blob(digest))
        }
    }

    /// Names are what `token list` shows and `token revoke` takes: short,
    /// printable, and safe in a log line.
    public static func validate(name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "."
        }
        guard (1...64).contains(name.unicodeScalars.count), allowed else {
            throw MemoError(.usage,
                            en: "a token name is 1 to 64 letters, digits, '-', '_' or '.', not '\(AccessTokens.shown(name))'",
                            ko: "토큰 이름은 영문자, 숫자, '-', '_', '.' 1~64자여야 합니다('\(AccessTokens.shown(name))')")
        }
    }

    /// A refused name as an error quotes it: control characters escaped, cut short.
    private static func shown(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars.prefix(80) {
            text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text
    }

    /// The bytes of lower- or upper-case hex digits; nil for anything else.
    public static func bytes(hex text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
