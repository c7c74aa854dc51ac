import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Copies of a whole database: SQLite's online backup API
/// (https://www.sqlite.org/backup.html) and `VACUUM INTO`
/// (https://www.sqlite.org/lang_vacuum.html#vacuuminto).
///
/// Both copy one consistent snapshot while other connections go on writing.
/// They differ in what they need and what they give: the backup API copies
/// pages as they are, fast, and can copy the snapshot of a read transaction
/// already open on this connection; `VACUUM INTO` rebuilds a compact file (no
/// free pages) but refuses to run inside a transaction. To keep a compact copy
/// of a chosen snapshot, take the snapshot with the first and compact that
/// private copy with the second.
extension Connection {
    /// Copies this database into a new file at `path`, page for page, in one
    /// pass of the backup API. Inside `readTransaction` the copy is that
    /// transaction's snapshot; outside one, the latest committed state.
    ///
    /// The copy's header is the source's (application_id, user_version, and
    /// the WAL mark, so it opens in WAL mode). The file is created with mode
    /// 0600 and must not exist; its bytes are on the disk when this returns
    /// (fsync the folder to make its name durable too).
    public func backup(to path: String) throws {
        try Connection.createEmptyFile(path)
        do {
            let destination = try Connection(opening: path, flags: SQLITE_OPEN_READWRITE, configuration: configuration)
            try backup(into: destination)
        } catch {
            unlink(path)
            unlink(path + "-journal")
            throw error
        }
    }

    /// Replaces the whole content of `destination` (another open connection,
    /// with no transaction of its own open) by this database's, in one write
    /// transaction of `destination`: its other readers see the old content or
    /// the new, never a mix, and a crash leaves the old. Waits for
    /// `destination`'s write lock as a write does. A destination in WAL mode
    /// must have the same page size (else SQLITE_READONLY).
    public func backup(into destination: Connection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        var status = sqlite3_backup_step(backup, -1)
        // The busy handler covers most waits; a lock that SQLite does not wait
        // for (SQLITE_LOCKED, or BUSY while the WAL is being recovered) is
        // retried here for as long as the destination's busy timeout.
        var waited: Int32 = 0
        while status == SQLITE_BUSY || status == SQLITE_LOCKED,
              waited < destination.configuration.busyTimeoutMilliseconds {
            usleep(20_000)
            waited += 20
            status = sqlite3_backup_step(backup, -1)
        }
        let finish = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else {
            // finish leaves the failure's code and message on the destination.
            let code = finish != SQLITE_OK ? sqlite3_extended_errcode(destination.handle) : status
            let message = finish != SQLITE_OK ? String(cString: sqlite3_errmsg(destination.handle))
                                              : String(cString: sqlite3_errstr(status))
            throw SQLiteError(code: code, message: "backup of \(path) into \(destination.path) failed: \(message)",
                              sql: nil, systemErrorNumber: Connection.systemErrorNumber(destination.handle, code: code))
        }
        guard finish == SQLITE_OK else { throw destination.error(code: finish, sql: nil) }
    }

    /// Writes a compact copy of this database (the latest committed state)
    /// into a new file at `path`: no free pages, in rollback-journal mode, so
    /// the copy is one self-contained file that opens read-only anywhere.
    /// application_id and user_version are copied. The file is created with
    /// mode 0600 and must not exist; its bytes are on the disk when this
    /// returns. Cannot run inside a transaction.
    public func vacuum(into path: String) throws {
        try Connection.createEmptyFile(path)
        do {
            try execute("VACUUM INTO ?", path)
            try Connection.flushFile(path)
        } catch {
            unlink(path)
            throw error
        }
    }

    // MARK: - Private

    /// Creates an empty file with mode 0600 (so that the umask cannot make a
    /// copy of private data readable by others); it must not exist.
    static func createEmptyFile(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(String(cString: strerror(code)))",
                              sql: nil, systemErrorNumber: code)
        }
        close(descriptor)
    }

    /// fsync of a file SQLite wrote without syncing it itself.
    static func flushFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var code: Int32 = 0
        if descriptor < 0 {
            code = errno
        } else {
            while fsync(descriptor) != 0 {
                if errno != EINTR { code = errno; break }
            }
            close(descriptor)
        }
        guard code == 0 else {
            throw SQLiteError(code: SQLITE_IOERR | (4 << 8),  // SQLITE_IOERR_FSYNC
                              message: "cannot flush \(path): \(String(cString: strerror(code)))",
                              sql: nil, systemErrorNumber: code)
        }
    }
}
