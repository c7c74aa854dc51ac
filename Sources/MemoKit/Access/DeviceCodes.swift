import MemoCore
import SQLite

/// Short codes a person types into a phone app (`K7QM-2XHD`), which the app
/// exchanges once for an API token of its own: a phone has no terminal to
/// paste a 64-digit token from. A signed-in page (`POST /api/v1/device-codes`)
/// or `memoapp token code NAME` makes one; it names the token it becomes and
/// that token's lifetime, lives `codeLifetime`, and is stored only as its
/// SHA-256 (table `api_device_codes`).
///
/// A code is short enough to type, 8 symbols of Crockford's base 32 (40
/// bits), so unlike every other credential here it could be guessed if
/// guesses were free; the server's failure budget only words refusals (see
/// `AuthenticationThrottle`). What keeps it out of reach is that every
/// wrong exchange, whoever sends it, counts against every code waiting, and
/// a code that has seen `maximumFailures` wrong exchanges is withdrawn:
/// the chance that a guesser gets one is at most 10 in 2^40 per code. A
/// neighbour sending wrong codes can withdraw codes (the person makes a new
/// one); it cannot get a token. (A copy of the database could be searched
/// through 2^40 digests, but a code lives minutes, is used once, and that
/// copy holds all the data already.)
public struct DeviceCodes {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// How long a code lives, in seconds: time to pick up a phone and type it.
    public static let codeLifetime = 10 * 60.0
    /// Wrong exchanges a waiting code outlives.
    public static let maximumFailures = 10
    /// Symbols of a code: Crockford's base 32, which has no I, L, O or U, so
    /// that what is typed reads as what was shown (`normalized` maps I and L
    /// to 1, O to 0).
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    static let symbolCount = 8

    public static let migrations: [Migration] = [
        Migration("access.4-device-codes", sql: """
            CREATE TABLE api_device_codes (
                hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                token_name TEXT NOT NULL CHECK (length(token_name) BETWEEN 1 AND 64),
                token_lifetime REAL CHECK (token_lifetime IS NULL OR token_lifetime > 0),
                expires_at REAL NOT NULL,
                failures INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            """),
    ]

    /// A code just made, the only time it is shown.
    public struct Made: Sendable, Equatable {
        /// As a person reads it: two groups of four, `K7QM-2XHD`.
        public let code: String
        public let tokenName: String
        /// Seconds the token lasts once made; nil: until revoked.
        public let tokenLifetime: Double?
        /// When the code stops working, used or not.
        public let expiresAt: Timestamp
    }

    /// A code for a token named `tokenName`, valid for `codeLifetime`.
    /// Expired and withdrawn codes are removed in the same transaction.
    /// - Throws: `.usage` for a name `AccessTokens.validate` refuses;
    ///   `.duplicate` when a token has the name or a waiting code names it.
    public func create(tokenName: String, tokenLifetime: Double?, at now: Timestamp) throws -> Made {
        try AccessTokens.validate(name: tokenName)
        if let tokenLifetime { _ = try TokenLifetime.checked(tokenLifetime) }
        let sodium = try LibSodium.loaded()
        // 5 random bytes are the 40 bits of 8 symbols of 5 bits each.
        let random = sodium.random(count: 5)
        let bits = random.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let symbols = (0..<DeviceCodes.symbolCount).map { index in
            DeviceCodes.alphabet[Int(bits >> UInt64(5 * (DeviceCodes.symbolCount - 1 - index)) & 0x1F)]
        }
        let expiresAt = now.adding(seconds: DeviceCodes.codeLifetime)
        try connection.writeTransaction {
            try removeSpent(at: now)
            let waiting = try connection.queryFirst("SELECT 1 FROM api_device_codes WHERE token_name = ?", tokenName) { _ in true }
            if try waiting != nil || AccessTokens(connection: connection).contains(name: tokenName) {
                throw MemoError(.duplicate,
                                en: "a token named '\(tokenName)' exists or a code waits for that name; revoke it or pick another name",
                                ko: "'\(tokenName)' 이름의 토큰이 있거나 그 이름을 기다리는 코드가 있습니다. 폐기하거나 다른 이름을 고르세요")
            }
            try connection.execute("""
                INSERT INTO api_device_codes (hash, token_name, token_lifetime, expires_at) VALUES (?, ?, ?, ?)
                """, SQLiteValue.blob(sodium.sha256(symbols)), tokenName, tokenLifetime, expiresAt.secondsSince1970)
        }
        let text = String(decoding: symbols, as: UTF8.self)
        return Made(code: "\(text.prefix(4))-\(text.dropFirst(4))", tokenName: tokenName,
                    tokenLifetime: tokenLifetime, expiresAt: expiresAt)
    }

    /// Exchanges `code` (as typed: any case, with or without the dash or
    /// spaces) for a new token and its secret, using the code up; nil when it
    /// is no waiting code, which counts as one failure against every code
    /// waiting (see the type's note).
    /// - Throws: `.duplicate` when a token of the code's name was made
    ///   since (the code is kept: revoke that token and try again).
    public func exchange(code: String, at now: Timestamp) throws -> (token: AccessToken, secret: String)? {
        let symbols = DeviceCodes.normalized(code)
        let sodium = try LibSodium.loaded()
        return try connection.writeTransaction { () -> (AccessToken, String)? in
            try removeSpent(at: now)
            let found = try symbols.flatMap { symbols in
                try connection.queryFirst("SELECT token_name, token_lifetime FROM api_device_codes WHERE hash = ?",
                                          SQLiteValue.blob(sodium.sha256(symbols))) { ($0.string(0), $0.optionalDouble(1)) }
            }
            guard let symbols, let (name, lifetime) = found else {
                // Text that cannot be a code is no guess at one, but it costs
                // nothing to count it alike, and a typo is a failure either way.
                try connection.execute("UPDATE api_device_codes SET failures = failures + 1")
                try removeSpent(at: now)
                return nil
            }
            try connection.execute("DELETE FROM api_device_codes WHERE hash = ?", SQLiteValue.blob(sodium.sha256(symbols)))
            return try AccessTokens(connection: connection).insert(name: name, lifetime: lifetime, at: now)
        }
    }

    /// The 8 symbols `text` is, in the alphabet's bytes, or nil: letters in
    /// either case, dashes and spaces anywhere ignored, `O` read as `0` and
    /// `I`, `L` as `1` (as Crockford's base 32 reads them).
    static func normalized(_ text: String) -> [UInt8]? {
        var symbols: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
            guard symbols.count < symbolCount else { return nil }
            var symbol = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            switch symbol {
            case UInt8(ascii: "O"): symbol = UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): symbol = UInt8(ascii: "1")
            default: break
            }
            guard alphabet.contains(symbol) else { return nil }
            symbols.append(symbol)
        }
        return symbols.count == symbolCount ? symbols : nil
    }

    /// Removes codes that expired or have seen too many wrong exchanges.
    private func removeSpent(at now: Timestamp) throws {
        try connection.execute("DELETE FROM api_device_codes WHERE expires_at <= ? OR failures >= ?",
                               now.secondsSince1970, DeviceCodes.maximumFailures)
    }
}
