import CSQLite

/// Transactions, and savepoints for the ones that nest
/// (https://www.sqlite.org/lang_transaction.html, https://www.sqlite.org/lang_savepoint.html).
///
/// Whether a transaction is open is SQLite's answer (`sqlite3_get_autocommit`),
/// not a flag kept beside it: SQLite ends a transaction by itself after some
/// failures (a full disk, an I/O error), and a body may run `COMMIT` itself.
extension Connection {
    /// Runs `body` in a write transaction and returns its result: commits when
    /// `body` returns, rolls back when it throws.
    ///
    /// Outside a transaction this is `BEGIN IMMEDIATE`, so the write lock is
    /// taken up front and waits under the busy timeout instead of failing
    /// half-way. Inside one (a write transaction within another) it is a
    /// savepoint: when `body` throws, its own changes are undone and the error
    /// comes out; the enclosing transaction keeps its earlier changes and goes
    /// on if it catches the error, or rolls back whole if it does not.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        isInsideTransaction ? try savepoint(body) : try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction, so that several queries see one
    /// snapshot. Inside another transaction it is a savepoint, as for
    /// `writeTransaction`: the snapshot is the enclosing one's. On a
    /// read-only connection it is no savepoint: nothing there can change, so
    /// the enclosing snapshot is all one gives, and its `SAVEPOINT` and
    /// `RELEASE` were a fiftieth of a server's small GET under perf.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard isInsideTransaction else { return try transaction(begin: "BEGIN DEFERRED", body) }
        guard configuration.isReadOnly else { return try savepoint(body) }
        let actionsBefore = commitActions.count
        do {
            return try body()
        } catch {
            // As a savepoint's rollback would: what `body` asked for is dropped.
            commitActions.removeSubrange(min(actionsBefore, commitActions.count)...)
            throw error
        }
    }

    /// Runs `action` once the changes made so far are committed: at once
    /// outside a transaction, else after the outermost transaction's `COMMIT`
    /// (in the order given); never when the transaction, or the savepoint
    /// `action` was given in, rolls back. For work outside the database that
    /// must not happen before the rows that allow it are durable, such as
    /// removing a file whose row was deleted, when the caller's transaction
    /// may enclose the one that deleted it. The first error an action throws
    /// comes out of the transaction, after every action ran.
    public func afterCommit(_ action: @escaping () throws -> Void) throws {
        if isInsideTransaction { commitActions.append(action) } else { try action() }
    }

    /// Whether a transaction is open on this connection, as SQLite sees it.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Private

    private func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        commitActions = []
        let result: T
        do {
            result = try body()
        } catch {
            rollBackIfOpen()
            commitActions = []
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            rollBackIfOpen()
            commitActions = []
            throw error
        }
        try runCommitActions()
        return result
    }

    private func runCommitActions() throws {
        let actions = commitActions
        commitActions = []
        var firstError: Error?
        for action in actions {
            do { try action() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// One name serves every depth: a savepoint is released before the one
    /// around it ends, so `ROLLBACK TO` always finds the innermost one.
    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT nested")
        let actionsBefore = commitActions.count
        let result: T
        do {
            result = try body()
        } catch {
            commitActions.removeSubrange(min(actionsBefore, commitActions.count)...)
            // SQLite may have rolled the whole transaction back already (and
            // the savepoint with it); the enclosing level meets that at COMMIT.
            if isInsideTransaction {
                try? execute("ROLLBACK TO nested")
                try? execute("RELEASE nested")
            }
            throw error
        }
        try execute("RELEASE nested")
        return result
    }

    func rollBackIfOpen() {
        if isInsideTransaction { try? execute("ROLLBACK") }
    }
}
