import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// What happens between `sqlite3_open_v2` and the first statement a caller
/// runs: the header check, the journal mode and the per-connection pragmas.
extension Connection {
    /// "SQLite format 3" and a NUL: the first 16 bytes of every SQLite database
    /// (https://www.sqlite.org/fileformat.html#magic_header_string).
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

    // MARK: - Private

    /// Checks the header, then runs the configuration's pragmas. Nothing is
    /// written before the header has been found acceptable.
    func prepare() throws {
        if configuration.isReadOnly {
            if let applicationID = configuration.applicationID {
                let current = try self.applicationID
                if current != applicationID { throw refusal(current: current) }
            }
            // Reading the schema now turns "not a database" into an opening failure.
            _ = try objectCount()
            return
        }
        if let applicationID = configuration.applicationID {
            try claim(applicationID: applicationID)
        } else {
            if try objectCount() == 0 { try refuseIfNotSQLite() }
            try setJournalMode()
        }
        try execute(configuration.foreignKeysEnabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        if let synchronous = configuration.synchronousPragma { try execute(synchronous) }
    }

    /// Reads the header's application_id before any write. The expected one:
    /// go on. Zero on a database without tables (new, or made empty by
    /// sqlite3), when the configuration allows: mark it and set its journal
    /// mode. Anything else: refuse.
    private func claim(applicationID: Int32) throws {
        let current = try self.applicationID
        if current == applicationID {
            try setJournalMode()
            return
        }
        guard current == 0, configuration.claimsEmptyDatabase, try objectCount() == 0 else {
            throw refusal(current: current)
        }
        try refuseIfNotSQLite()
        try setJournalMode()
        try execute("PRAGMA application_id = \(applicationID)")
    }

    /// SQLite takes a file too short to hold a page for an empty database
    /// (a database cut down to one byte, a one-letter text file); setting it
    /// up would write a new database over it. Only a file that is empty or
    /// starts like a SQLite database may be written to. Called for a database
    /// without tables.
    private func refuseIfNotSQLite() throws {
        guard !Connection.isEmptyOrSQLite(path) else { return }
        throw SQLiteError(code: SQLITE_NOTADB,
                          message: "\(path) is not a SQLite database (too short, or its header is damaged); left untouched",
                          sql: nil)
    }

    private func refusal(current: Int32) -> SQLiteError {
        SQLiteError(code: SQLITE_NOTADB,
                    message: "\(path) is not \(configuration.databaseNoun) (application_id \(current)); left untouched",
                    sql: nil)
    }

    private func objectCount() throws -> Int {
        try queryFirst("SELECT count(*) FROM sqlite_master") { $0.int(0) } ?? 0
    }

    /// Whether the file is empty (a new database; in WAL mode its first pages
    /// may still be in the -wal file) or begins with SQLite's header string.
    static func isEmptyOrSQLite(_ path: String) -> Bool {
        // Unreadable: SQLite opened it, so let it speak for itself.
        guard let header = leadingBytes(of: path, count: 16) else { return true }
        return header.isEmpty || header.elementsEqual(sqliteMagic)
    }

    /// Switches to the configured journal mode. Switching to or from WAL needs
    /// a lock that the busy handler does not always wait for, so a few retries
    /// cover two processes creating the database at once.
    private func setJournalMode() throws {
        guard let wanted = configuration.journalMode, let sql = configuration.journalModePragma else { return }
        var attempts = 0
        while true {
            do {
                let mode = try queryFirst(sql) { $0.string(0) }
                if mode?.lowercased() == wanted.rawValue { return }
                throw SQLiteError(code: SQLITE_ERROR, message: "could not switch to \(wanted) (got \(mode ?? "nothing"))",
                                  sql: sql)
            } catch let failure as SQLiteError where failure.code == SQLITE_BUSY && attempts < 100 {
                attempts += 1
                usleep(20_000)
            }
        }
    }
}
