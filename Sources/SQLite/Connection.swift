import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One open SQLite database, set up as its `Configuration` says. Used by one
/// thread at a time (SQLite's multi-thread mode,
/// https://www.sqlite.org/threadsafe.html); `DatabasePool` shares one
/// database between threads.
public final class Connection {
    let handle: OpaquePointer
    public let path: String
    /// What this connection was opened with.
    public let configuration: Configuration
    private var statementCache: [String: Statement] = [:]
    private var isClosed = false
    /// Work to do once the outermost transaction commits (see `afterCommit`).
    var commitActions: [() throws -> Void] = []

    /// Opens (creating when absent, unless the configuration says otherwise)
    /// the database at `path`.
    ///
    /// With an `applicationID` in the configuration, a file that holds another
    /// program's database is refused, not modified: the header must carry that
    /// number, or the database must be empty, before anything is written.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        let access = configuration.isReadOnly
            ? SQLITE_OPEN_READONLY
            : SQLITE_OPEN_READWRITE | (configuration.mayCreate ? SQLITE_OPEN_CREATE : 0)
        try self.init(opening: path, flags: access, configuration: configuration)
        do {
            try prepare()
        } catch let failure as SQLiteError {
            // These statements are fixed and tested: when they fail, the file is
            // at fault (e.g. "unsupported file format", a plain SQLITE_ERROR).
            throw failure.whileOpening()
        }
    }

    /// Opens `path` with the default configuration but another busy timeout.
    public convenience init(path: String, busyTimeoutMilliseconds: Int32) throws {
        try self.init(path: path, configuration: Configuration(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    }

    /// Opens the existing database at `path` for reading only: nothing is
    /// created or written, the header is not checked (read `applicationID`
    /// yourself), and a file on a read-only disk opens too. Meant for
    /// databases in rollback-journal mode, such as the copies `vacuum(into:)`
    /// makes; a WAL database needs its -shm file to be writable or present.
    public convenience init(readingOnly path: String,
                            busyTimeoutMilliseconds: Int32 = Configuration.defaultBusyTimeoutMilliseconds) throws {
        try self.init(path: path, configuration: Configuration(busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                                               isReadOnly: true))
    }

    /// Opens `path` with `flags` and sets the connection up; the public
    /// initializers add what their kind of opening needs.
    init(opening path: String, flags: Int32, configuration: Configuration) throws {
        SQLiteLibrary.configure()
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
        self.configuration = configuration
        // Every stored property is set from here on, so when a step in a
        // convenience initializer throws, Swift runs deinit, which finalizes the
        // statements and closes the handle. Closing it there as well would
        // close it twice (a use after free).
        sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        closeNow()
    }

    /// The application_id in the database header.
    public var applicationID: Int32 {
        get throws { try queryFirst("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0 }
    }

    // MARK: Running SQL

    /// Runs one statement with `arguments` bound to its placeholders, discarding rows.
    public func execute(_ sql: String, _ arguments: (any SQLiteValueConvertible)?...) throws {
        try execute(sql, arguments: arguments.map { $0?.sqliteValue ?? .null })
    }

    public func execute(_ sql: String, arguments: [SQLiteValue]) throws {
        let statement = try statementForRun(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {}
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

    /// Runs a query and maps every row. `map` may run other queries on this
    /// connection, the same SQL included.
    public func query<T>(_ sql: String, _ arguments: (any SQLiteValueConvertible)?...,
                         map: (Row) throws -> T) throws -> [T] {
        try query(sql, arguments: arguments.map { $0?.sqliteValue ?? .null }, map: map)
    }

    public func query<T>(_ sql: String, arguments: [SQLiteValue], map: (Row) throws -> T) throws -> [T] {
        let statement = try statementForRun(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
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
        let statement = try statementForRun(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? try map(statement.row) : nil
    }

    /// The rowid of the last insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    // MARK: Statements

    /// The statement for `sql` that this connection prepares once and keeps:
    /// the same object every time, so whoever runs it next resets it. Bulk
    /// paths run the same few statements many times.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(connection: self, sql: sql, isPersistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// A new statement for `sql`, owned by the caller alone and finalized when
    /// released: for a run that must not share its position with anyone.
    public func makeStatement(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql, isPersistent: false)
    }

    // MARK: - Private

    /// The cached statement, unless it is in the middle of a run (a `query`
    /// further up the stack is mapping its rows): then a fresh one, since
    /// binding the cached one would reset that run under its feet.
    private func statementForRun(_ sql: String) throws -> Statement {
        let statement = try cachedStatement(sql)
        return statement.isRunning ? try makeStatement(sql) : statement
    }

    /// Closes the database before this object goes away: a pool decides which
    /// of its connections closes last. Nothing may use the connection after.
    /// A fresh statement still alive keeps SQLite's side open until it is
    /// finalized (https://www.sqlite.org/c3ref/close.html).
    func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

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
}
