/// A reader held by one thread across several reads, all in one read
/// transaction: one snapshot, and one `BEGIN`, first read and `COMMIT`
/// instead of one each. A server's request reads in turn for its checks (a
/// credential, a gate) and for its answer; each `DatabasePool.read` cost a
/// transaction of its own, a tenth of a small GET's time under perf.
///
/// Held from `DatabasePool.leaseReader` until `end`, on the thread that
/// took it (the pool's calls on that thread are refused meanwhile, as
/// inside a `read`, since one could wait for the reader this thread holds).
/// Writes committed after the lease began stay invisible to it: end it
/// before writing when what follows must see the write.
public final class ReaderLease {
    private let pool: DatabasePool
    private var connection: Connection?

    fileprivate init(pool: DatabasePool, connection: Connection) {
        self.pool = pool
        self.connection = connection
    }

    deinit {
        precondition(connection == nil, "a reader lease was dropped without end()")
    }

    /// Runs `body` with the leased reader, in the lease's read transaction.
    /// When `body` throws, the lease ends (a failure may have ended SQLite's
    /// transaction too) and the error comes out.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let connection else {
            preconditionFailure("a reader lease was used after its end")
        }
        do {
            return try body(connection)
        } catch {
            end()
            throw error
        }
    }

    /// Whether the lease still holds its reader.
    public var isHeld: Bool { connection != nil }

    /// Ends the read transaction and gives the reader back; again does nothing.
    public func end() {
        guard let connection else { return }
        self.connection = nil
        connection.rollBackIfOpen()
        pool.giveBack(connection)
    }
}

extension DatabasePool {
    /// A reader for this thread to read through, in one read transaction
    /// whose snapshot is taken now, until the lease's `end`. Waits only while
    /// every reader is held by another thread.
    public func leaseReader() throws -> ReaderLease {
        let connection = try takeReader()
        do {
            try connection.execute("BEGIN DEFERRED")
            // The snapshot begins at the first read, not at BEGIN: take it now.
            _ = try connection.queryFirst("PRAGMA schema_version") { $0.int(0) }
        } catch {
            connection.rollBackIfOpen()
            giveBack(connection)
            throw error
        }
        return ReaderLease(pool: self, connection: connection)
    }
}
