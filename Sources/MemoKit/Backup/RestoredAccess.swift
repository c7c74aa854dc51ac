import MemoCore
import SQLite

/// What a restore did with the credentials of the HTTP server: API tokens
/// (`api_tokens`), web sessions (`api_sessions`), sign-in codes and device
/// codes.
///
/// A backup holds the tokens and sessions of its day. Restored as they
/// were, an older backup brought back every token revoked and every session
/// ended since (issue 29, finding 6): a revocation that a restore undoes
/// is no revocation. So a restore into a home that had a database keeps
/// that home's own credentials, whatever the backup holds: what the home
/// revoked stays revoked, and what it made since the backup stays usable.
/// Only into a home without a database (a new machine) do the backup's
/// come in, as there is nothing they could undo. A home whose database
/// cannot be read (restored over with --force) keeps neither: which of
/// the backup's were revoked since cannot be known, and new tokens are a
/// command away, while a revived one is a hole nobody sees.
public enum RestoredAccess: Sendable, Equatable {
    /// Into a home without a database: the backup's, as they were.
    case fromBackup(tokens: Int, sessions: Int)
    /// This home's own, kept; the backup's were not restored.
    case keptHome(tokens: Int, sessions: Int, backupTokens: Int, backupSessions: Int)
    /// The home's database could not be read: none are left.
    case neither(backupTokens: Int, backupSessions: Int)
}

/// The credentials a data home holds, read before a restore replaces its
/// database and written back into the restored one.
struct HomeCredentials {
    private var tokens: [[SQLiteValue]] = []
    private var sessions: [[SQLiteValue]] = []
    private var codes: [[SQLiteValue]] = []
    private var deviceCodes: [[SQLiteValue]] = []

    enum Reading {
        /// No database: a new machine.
        case noDatabase
        case read(HomeCredentials)
        /// A database that does not open or read as memoapp's.
        case unreadable
    }

    /// Reads them from the home's database, before the restore touches it.
    static func read(_ home: DataHome) -> Reading {
        guard !HomeState.isDatabaseEmpty(home) else { return .noDatabase }
        do {
            let connection = try MemoDatabase.connect(home.databasePath)
            return .read(try connection.readTransaction {
                var credentials = HomeCredentials()
                // A home made before a table existed has none of its rows.
                let tables = Set(try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(0) })
                if tables.contains("api_tokens") {
                    // A home not migrated since tokens could expire has no
                    // expiry column: its tokens last until revoked.
                    let columns = Set(try connection.query("SELECT name FROM pragma_table_info('api_tokens')") { $0.string(0) })
                    let expiry = columns.contains("expires_at") ? "expires_at" : "NULL"
                    credentials.tokens = try connection.query(
                        "SELECT id, name, hash, created_at, last_used_at, \(expiry) FROM api_tokens ORDER BY id"
                    ) { row in (0..<6).map(row.value) }
                }
                if tables.contains("api_sessions") {
                    credentials.sessions = try connection.query(
                        "SELECT hash, created_at, expires_at FROM api_sessions") { row in (0..<3).map(row.value) }
                }
                if tables.contains("api_sign_in_codes") {
                    credentials.codes = try connection.query("SELECT hash, expires_at FROM api_sign_in_codes") { row in (0..<2).map(row.value) }
                }
                if tables.contains("api_device_codes") {
                    credentials.deviceCodes = try connection.query(
                        "SELECT hash, token_name, token_lifetime, expires_at, failures FROM api_device_codes"
                    ) { row in (0..<5).map(row.value) }
                }
                return credentials
            })
        } catch {
            return .unreadable
        }
    }

    /// Inside the restored database's first write transaction (migrated,
    /// so the tables exist): puts `reading`'s credentials in place of the
    /// backup's, and says what it did.
    static func apply(_ reading: Reading, in connection: Connection) throws -> RestoredAccess {
        let backupTokens = try connection.queryFirst("SELECT count(*) FROM api_tokens") { $0.int(0) } ?? 0
        let backupSessions = try connection.queryFirst("SELECT count(*) FROM api_sessions") { $0.int(0) } ?? 0
        switch reading {
        case .noDatabase:
            return .fromBackup(tokens: backupTokens, sessions: backupSessions)
        case .unreadable:
            try replace(with: HomeCredentials(), in: connection)
            return .neither(backupTokens: backupTokens, backupSessions: backupSessions)
        case .read(let credentials):
            try replace(with: credentials, in: connection)
            return .keptHome(tokens: credentials.tokens.count, sessions: credentials.sessions.count,
                             backupTokens: backupTokens, backupSessions: backupSessions)
        }
    }

    private static func replace(with credentials: HomeCredentials, in connection: Connection) throws {
        try connection.execute("DELETE FROM api_tokens")
        try connection.execute("DELETE FROM api_sessions")
        try connection.execute("DELETE FROM api_sign_in_codes")
        try connection.execute("DELETE FROM api_device_codes")
        for row in credentials.tokens {
            try connection.execute(
                "INSERT INTO api_tokens (id, name, hash, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: row)
        }
        for row in credentials.sessions {
            try connection.execute("INSERT INTO api_sessions (hash, created_at, expires_at) VALUES (?, ?, ?)", arguments: row)
        }
        for row in credentials.codes {
            try connection.execute("INSERT INTO api_sign_in_codes (hash, expires_at) VALUES (?, ?)", arguments: row)
        }
        for row in credentials.deviceCodes {
            try connection.execute(
                "INSERT INTO api_device_codes (hash, token_name, token_lifetime, expires_at, failures) VALUES (?, ?, ?, ?, ?)",
                arguments: row)
        }
    }
}
