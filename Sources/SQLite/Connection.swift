import CSQLite
import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// One open SQLite database: WAL journal, foreign keys on, a busy timeout, and
/// memoapp's application_id. Not shared between threads.
public final class Connection {
    /// memoapp's mark in the database header ("MEMO" in ASCII); see
    /// https://www.sqlite.org/pragma.html#pragma_application_id
    public static let memoappApplicationID: Int32 = 0x4D45_4D4F

    /// How long a writer waits for another process's lock before giving up.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 5000

    let handle: OpaquePointer
    public let path: String
    private var statementCache: [String: Statement] = [:]
    private var isInTransaction = false

    /// Opens (creating when absent) the database at `path`.
    ///
    /// A file that holds another program's database is refused, not modified:
    /// the header's application_id must be memoapp's, or the database must be
    /// empty, before anything is written.
    public convenience init(path: String, applicationID: Int32 = Connection.memoappApplicationID,
                            busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds) throws {
        try self.init(opening: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do {
            try claim(applicationID: applicationID)
            try execute("PRAGMA foreign_keys = ON")
            try execute("PRAGMA synchronous = FULL")
        } catch let failure as SQLiteError {
            // These statements are fixed and tested: when they fail, the file is
            // at fault (e.g. "unsupported file format", a plain SQLITE_ERROR).
            throw failure.whileOpening()
        }
    }

    /// Opens the existing database at `path` for reading only: nothing is
    /// created or written, the header is not claimed (check `applicationID`
    /// yourself), and a file on a read-only disk opens too. Meant for
    /// databases in rollback-journal mode, such as the copies `vacuum(into:)`
    /// makes; a WAL database needs its -shm file to be writable or present.
    public convenience init(readingOnly path: String,
                            busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds) throws {
        try self.init(opening: path, flags: SQLITE_OPEN_READONLY, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do {
            // Reading the schema now turns "not a database" into an opening failure.
            _ = try queryFirst("SELECT count(*) FROM sqlite_master") { $0.int(0) }
        } catch let failure as SQLiteError {
            throw failure.whileOpening()
        }
    }

    /// The application_id in the database header.
    public var applicationID: Int32 {
        get throws { try queryFirst("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0 }
    }

    /// Opens `path` with `flags` and sets the connection up; the public
    /// initializers add what their kind of opening needs.
    init(opening path: String, flags: Int32, busyTimeoutMilliseconds: Int32) throws {
        var handle: OpaquePointer?
        let flags = flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            let systemErrorNumber = Connection.systemErrorNumber(handle, code: status)
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: message, sql: nil, systemErrorNumber: systemErrorNumber)
        }
        self.handle = handle
        self.path = path
        // Every stored property is set from here on, so when a step in a
        // convenience initializer throws, Swift runs deinit, which finalizes the
        // statements and closes the handle. Closing it there as well would
        // close it twice (a use after free).
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs one statement with `arguments` bound to its placeholders, discarding rows.
    public func execute(_ sql: String, _ arguments: (any SQLiteValueConvertible)?...) throws {
        try execute(sql, arguments: arguments.map { $0?.sqliteValue ?? .null })
    }

    public func execute(_ sql: String, arguments: [SQLiteValue]) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        sqlite3_reset(statement.handle)
    }

    /// Runs several statements with no arguments (schema scripts in migrations).
    public func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            let extended = sqlite3_extended_errcode(handle)
            throw SQLiteError(code: extended, message: text, sql: sql,
                              systemErrorNumber: Connection.systemErrorNumber(handle, code: extended))
        }
    }

    /// Runs a query and maps every row.
    public func query<T>(_ sql: String, _ arguments: (any SQLiteValueConvertible)?...,
                         map: (Row) throws -> T) throws -> [T] {
        try query(sql, arguments: arguments.map { $0?.sqliteValue ?? .null }, map: map)
    }

    public func query<T>(_ sql: String, arguments: [SQLiteValue], map: (Row) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        var results: [T] = []
        while try statement.step() {
            results.append(try map(statement.row))
        }
        return results
    }

    /// The first row mapped, or nil when there is none.
    public func queryFirst<T>(_ sql: String, _ arguments: (any SQLiteValueConvertible)?...,
                              map: (Row) throws -> T) throws -> T? {
        try queryFirst(sql, arguments: arguments.map { $0?.sqliteValue ?? .null }, map: map)
    }

    public func queryFirst<T>(_ sql: String, arguments: [SQLiteValue], map: (Row) throws -> T) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        return try statement.step() ? try map(statement.row) : nil
    }

    /// The rowid of the last insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// A statement prepared once per connection and reused; memoapp runs the
    /// same few statements many times in bulk paths.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(connection: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    // MARK: Transactions

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`, so the write lock
    /// is taken up front and waits under the busy timeout instead of failing
    /// half-way). Commits when `body` returns, rolls back when it throws.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction, so that several queries see one snapshot.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(begin: "BEGIN DEFERRED", body)
    }

    private func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        precondition(!isInTransaction, "memoapp transactions do not nest")
        try execute(begin)
        isInTransaction = true
        defer { isInTransaction = false }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    // MARK: - Private

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        return SQLiteError(code: extended, message: String(cString: sqlite3_errmsg(handle)), sql: sql,
                           systemErrorNumber: Connection.systemErrorNumber(handle, code: extended))
    }

    /// The errno of the failed system call, for failures of the file or the
    /// disk only: SQLite keeps the last one it met, which after other kinds of
    /// failure may be an old, harmless one (https://www.sqlite.org/c3ref/system_errno.html).
    static func systemErrorNumber(_ handle: OpaquePointer?, code: Int32) -> Int32 {
        guard let handle else { return 0 }
        switch code & 0xFF {
        case SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
            return sqlite3_system_errno(handle)
        default:
            return 0
        }
    }

    /// Reads the header's application_id before any write. Ours: go on. Zero on a
    /// database without tables (new, or made empty by sqlite3): mark it ours and
    /// switch it to WAL. Anything else: refuse.
    private func claim(applicationID: Int32) throws {
        let current = try queryFirst("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
        if current == applicationID {
            try enableWAL()
            return
        }
        let objectCount = try queryFirst("SELECT count(*) FROM sqlite_master") { $0.int(0) } ?? 0
        guard current == 0, objectCount == 0 else {
            throw SQLiteError(code: SQLITE_NOTADB,
                              message: "\(path) is not a memoapp database (application_id \(current)); left untouched",
                              sql: nil)
        }
        // SQLite takes a file too short to hold a page for an empty database
        // (a memoapp.db cut down to one byte, a one-letter text file); claiming
        // it would write a new database over it. Only a file that is empty or
        // starts like a SQLite database may be claimed.
        guard Connection.isEmptyOrSQLite(path) else {
            throw SQLiteError(code: SQLITE_NOTADB,
                              message: "\(path) is not a SQLite database (too short, or its header is damaged); left untouched",
                              sql: nil)
        }
        try enableWAL()
        try execute("PRAGMA application_id = \(applicationID)")
    }

    /// Whether the file is empty (a new database; in WAL mode its first pages
    /// may still be in the -wal file) or begins with SQLite's header string
    /// (https://www.sqlite.org/fileformat.html#magic_header_string).
    static func isEmptyOrSQLite(_ path: String) -> Bool {
        // Unreadable: SQLite opened it, so let it speak for itself.
        guard let header = leadingBytes(of: path, count: 16) else { return true }
        return header.isEmpty || header.elementsEqual(sqliteMagic)
    }

    /// "SQLite format 3" and a NUL: the first 16 bytes of every SQLite database.
    public static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// Up to `count` bytes from the start of the file at `path` (fewer when the
    /// file is shorter), or nil when it cannot be read.
    public static func leadingBytes(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes[filled...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// WAL lets readers go on while one process writes. The switch needs a lock
    /// that the busy handler does not always wait for, so a few retries cover two
    /// processes creating the database at once.
    private func enableWAL() throws {
        var attempts = 0
        while true {
            do {
                let mode = try queryFirst("PRAGMA journal_mode = WAL") { $0.string(0) }
                if mode?.lowercased() == "wal" { return }
                throw SQLiteError(code: SQLITE_ERROR, message: "could not switch to WAL (got \(mode ?? "nothing"))",
                                  sql: "PRAGMA journal_mode = WAL")
            } catch let failure as SQLiteError where failure.code == SQLITE_BUSY && attempts < 100 {
                attempts += 1
                usleep(20_000)
            }
        }
    }
}
