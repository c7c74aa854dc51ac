import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One database shared by many threads: one writer connection and up to
/// `maximumReaderCount` reader connections over a WAL database
/// (https://www.sqlite.org/wal.html#concurrency).
///
/// Writes run one at a time in this process, each in a `BEGIN IMMEDIATE`
/// transaction that waits under the busy timeout for other processes'
/// writers. Reads run at once on as many threads as there are readers, each
/// in its own read transaction whose snapshot is the last commit before it
/// began, so a read never sees half of a write and never waits for the
/// writer. Readers are opened when first needed (read-only) and reused; a
/// connection is only ever used by the one thread that holds it.
///
/// A call to `read` or `write` inside another on the same thread is a mistake
/// (it could wait forever for a connection its own thread holds): use the
/// connection the outer call gave. So is one while the thread holds a
/// `ReaderLease` (see `leaseReader`).
public final class DatabasePool: @unchecked Sendable {
    public let path: String
    /// What the writer was opened with; readers use the same, read-only.
    public let configuration: Configuration
    public let maximumReaderCount: Int

    // Everything below is guarded by `state`.
    private let state = Condition()
    private var writer: Connection?
    private var isWriterHeld = false
    private var idleReaders: [Connection] = []
    /// Readers opened (or being opened) and not closed, idle or held.
    private var openedReaderCount = 0
    private var heldReaderCount = 0
    private var isClosed = false
    /// Marks, per thread, that the thread is inside one of this pool's calls.
    private let insideCallKey: pthread_key_t

    /// Opens the writer at once, so that a file that is not acceptable (another
    /// program's, damaged) is refused here, and so that the database is in WAL
    /// mode before any reader opens it. `configuration` must ask for WAL and
    /// for writing.
    public init(path: String, configuration: Configuration = Configuration(), maximumReaderCount: Int = 5) throws {
        precondition(maximumReaderCount >= 1, "a pool needs at least one reader")
        precondition(configuration.journalMode == .wal && !configuration.isReadOnly,
                     "a pool's readers run beside its writer only in WAL mode")
        precondition(sqlite3_threadsafe() != 0, "this SQLite library was built without thread support")
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        insideCallKey = key
        self.path = path
        self.configuration = configuration
        self.maximumReaderCount = maximumReaderCount
        writer = try Connection(path: path, configuration: configuration)
    }

    deinit {
        pthread_key_delete(insideCallKey)
    }

    /// Runs `body` with the writer in a write transaction and returns its
    /// result: committed when `body` returns, rolled back when it throws.
    /// Waits while another thread writes.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try writeWithoutTransaction { connection in try connection.writeTransaction { try body(connection) } }
    }

    /// Runs `body` with the writer, outside any transaction, for what cannot
    /// run inside one: migrations (foreign keys off), `VACUUM`, several
    /// transactions in a row. Waits while another thread writes. A
    /// transaction `body` leaves open is rolled back, so the next writer
    /// starts clean.
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try takeWriter()
        defer {
            connection.rollBackIfOpen()
            giveBackWriter()
        }
        return try body(connection)
    }

    /// Runs `body` with a reader in a read transaction and returns its result.
    /// The reader is read-only (a write fails with SQLITE_READONLY) and its
    /// snapshot is the database as last committed before this call; writes
    /// committed meanwhile stay invisible until the next read. Waits only
    /// while every reader is held by another thread.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try takeReader()
        defer { giveBack(connection) }
        return try connection.readTransaction {
            // The snapshot begins at the first read, not at BEGIN: take it now.
            _ = try connection.queryFirst("PRAGMA schema_version") { $0.int(0) }
            return try body(connection)
        }
    }

    /// Reader connections open now, idle or in use (at most `maximumReaderCount`).
    public var readerCount: Int {
        state.withLock { openedReaderCount }
    }

    /// Closes every connection once the reads and the write in progress have
    /// returned. Calls that have not got their connection by then, and every
    /// later call, fail with SQLITE_MISUSE. Calling it again does nothing.
    public func close() {
        precondition(!isInsideCall, "a pool cannot be closed from inside one of its own calls")
        var readers: [Connection] = []
        var writer: Connection?
        state.withLock {
            isClosed = true
            state.broadcast()
            while isWriterHeld || heldReaderCount > 0 {
                state.wait()
            }
            (readers, writer) = (idleReaders, self.writer)
            (idleReaders, openedReaderCount, self.writer) = ([], 0, nil)
        }
        // Readers first: the last connection to close checkpoints the WAL
        // into the database and removes it, which only the writer may do.
        for reader in readers { reader.closeNow() }
        writer?.closeNow()
    }

    // MARK: - Private

    private func takeWriter() throws -> Connection {
        precondition(!isInsideCall, "a pool's write cannot run inside another of its calls: use the connection it gave")
        let connection = try state.withLock { () throws -> Connection in
            while true {
                guard !isClosed, let writer else { throw closedError() }
                if !isWriterHeld {
                    isWriterHeld = true
                    return writer
                }
                state.wait()
            }
        }
        isInsideCall = true
        return connection
    }

    private func giveBackWriter() {
        isInsideCall = false
        state.withLock {
            isWriterHeld = false
            state.broadcast()
        }
    }

    /// An idle reader, or a new one while there are fewer than the maximum;
    /// else waits for one to come back.
    func takeReader() throws -> Connection {
        precondition(!isInsideCall, "a pool's read cannot run inside another of its calls: use the connection it gave")
        let idle = try state.withLock { () throws -> Connection? in
            while true {
                if isClosed { throw closedError() }
                if let reader = idleReaders.popLast() {
                    heldReaderCount += 1
                    return reader
                }
                if openedReaderCount < maximumReaderCount {
                    openedReaderCount += 1  // reserved while it opens, outside the lock
                    heldReaderCount += 1
                    return nil
                }
                state.wait()
            }
        }
        let reader: Connection
        if let idle {
            reader = idle
        } else {
            do {
                reader = try Connection(path: path, configuration: configuration.readingOnly)
            } catch {
                state.withLock {
                    openedReaderCount -= 1
                    heldReaderCount -= 1
                    state.broadcast()
                }
                throw error
            }
        }
        isInsideCall = true
        return reader
    }

    func giveBack(_ reader: Connection) {
        isInsideCall = false
        let isClosing = state.withLock { () -> Bool in
            guard !isClosed else { return true }
            heldReaderCount -= 1
            idleReaders.append(reader)
            state.broadcast()
            return false
        }
        guard isClosing else { return }
        // Closed before `close` may close the writer, which must be the last.
        reader.closeNow()
        state.withLock {
            heldReaderCount -= 1
            openedReaderCount -= 1
            state.broadcast()
        }
    }

    private func closedError() -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the database pool of \(path) is closed", sql: nil)
    }

    /// Whether the current thread is inside one of this pool's calls (or
    /// holds one of its leases).
    var isInsideCall: Bool {
        get { pthread_getspecific(insideCallKey) != nil }
        set { pthread_setspecific(insideCallKey, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
    }
}
