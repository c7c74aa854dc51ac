import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by SQLite: its result code (named as SQLite names it),
/// SQLite's own message, and the SQL that was running.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, e.g. 2067 for SQLITE_CONSTRAINT_UNIQUE.
    public let extendedCode: Int32
    public let message: String
    public let sql: String?
    /// The operating system's errno behind an I/O failure (ENOSPC, EROFS, EACCES…),
    /// or 0. SQLite reports a full disk met while sizing the -shm file as a
    /// plain "disk I/O error"; the errno is what tells the user why.
    public let systemErrorNumber: Int32
    /// The failure came while opening the database (reading its header and
    /// schema), so the file is at fault whatever the code says.
    public private(set) var isOpeningFailure = false

    public init(code: Int32, message: String, sql: String? = nil, systemErrorNumber: Int32 = 0) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
        self.systemErrorNumber = systemErrorNumber
    }

    /// The same failure, marked as met while opening the database.
    public func whileOpening() -> SQLiteError {
        var copy = self
        copy.isOpeningFailure = true
        return copy
    }

    /// The primary result code (the low byte of the extended one).
    public var code: Int32 { extendedCode & 0xFF }

    /// SQLite's name for the primary code, e.g. `SQLITE_BUSY`.
    public var codeName: String { SQLiteError.names[code] ?? "SQLITE_\(code)" }

    /// Why, in the operating system's words ("No space left on device"), or nil.
    public var systemReason: String? {
        systemErrorNumber == 0 ? nil : String(cString: strerror(systemErrorNumber))
    }

    /// The disk holding the database is full (SQLite says so, or the errno does).
    public var isDiskFull: Bool {
        code == SQLITE_FULL || systemErrorNumber == ENOSPC || systemErrorNumber == EDQUOT
    }

    /// The database or its folder cannot be written (a read-only mount or file).
    public var isReadOnly: Bool {
        code == SQLITE_READONLY || systemErrorNumber == EROFS
    }

    /// The file is damaged or is not a SQLite database.
    public var isCorrupt: Bool {
        code == SQLITE_CORRUPT || code == SQLITE_NOTADB || (isOpeningFailure && code == SQLITE_ERROR)
    }

    /// A UNIQUE constraint on `table.column` refused the write (SQLite names
    /// the column in its message: "UNIQUE constraint failed: todos.uid").
    public func isUniqueViolation(table: String, column: String) -> Bool {
        // SQLITE_CONSTRAINT_UNIQUE, a macro Swift does not import.
        extendedCode == SQLITE_CONSTRAINT | (8 << 8) && message.hasSuffix(" \(table).\(column)")
    }

    /// A constraint (UNIQUE, NOT NULL, CHECK, a foreign key) refused the write.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    public var description: String {
        var text = "\(codeName) (\(extendedCode)): \(message)"
        if let systemReason { text += " (\(systemReason))" }
        if let sql { text += " — while running: \(sql)" }
        return text
    }

    /// Whether the file, the disk or a lock is at fault (a full or read-only
    /// disk, a damaged file, a lock held past the timeout), rather than the
    /// SQL or the calling code (a syntax error, a constraint, a misuse).
    /// Every failure met while opening is the file's.
    public var isStorageFailure: Bool {
        if isOpeningFailure { return true }
        switch code {
        case SQLITE_ERROR, SQLITE_MISUSE, SQLITE_RANGE, SQLITE_CONSTRAINT, SQLITE_MISMATCH,
             SQLITE_INTERNAL, SQLITE_SCHEMA, SQLITE_TOOBIG:
            return false
        default:
            return true
        }
    }

    static let names: [Int32: String] = [
        SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL", SQLITE_PERM: "SQLITE_PERM",
        SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY", SQLITE_LOCKED: "SQLITE_LOCKED",
        SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
        SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR",
        SQLITE_CORRUPT: "SQLITE_CORRUPT", SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL",
        SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_PROTOCOL: "SQLITE_PROTOCOL",
        SQLITE_SCHEMA: "SQLITE_SCHEMA", SQLITE_TOOBIG: "SQLITE_TOOBIG",
        SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
        SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
        SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
    ]
}
