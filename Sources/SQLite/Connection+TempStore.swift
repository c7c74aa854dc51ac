extension Connection {
    /// Runs `body` with this connection's temporary files kept in memory
    /// (`PRAGMA temp_store = MEMORY`), then puts the previous setting back,
    /// also when `body` throws. Inside a transaction `body` just runs: SQLite
    /// chose where that transaction's statement journals go when it began,
    /// and refuses the change inside one that has temporary tables.
    ///
    /// For one large write: every statement of a transaction that can fail
    /// halfway (an INSERT whose triggers write other tables) keeps a
    /// statement journal, a temporary file, to undo just itself. On disk that
    /// is a file in /var/tmp written and truncated for every row: over half a
    /// million small writes per 40,000 rows imported. In memory each journal
    /// is as small as the one statement it undoes, and gone when it ends.
    /// (https://www.sqlite.org/tempfiles.html#statement_journals,
    /// https://www.sqlite.org/pragma.html#pragma_temp_store)
    public func withTemporaryFilesInMemory<T>(_ body: () throws -> T) throws -> T {
        guard !isInsideTransaction else { return try body() }
        let previous = try queryFirst("PRAGMA temp_store") { $0.int64(0) } ?? 0
        try execute("PRAGMA temp_store = MEMORY")
        defer { _ = try? execute("PRAGMA temp_store = \(previous)") }
        return try body()
    }
}

extension Connection {
    /// Runs `body` with this connection's temporary files on disk
    /// (`PRAGMA temp_store = FILE`), then puts the previous setting back.
    /// Inside a transaction SQLite refuses the change once the transaction
    /// has used temporary tables; then `body` runs with the setting as it was.
    ///
    /// For sorts larger than memory should hold: with temporary files in
    /// memory SQLite's sorter keeps every key of a `CREATE INDEX` in memory
    /// (the index of a table of millions of rows is that many keys); with
    /// them on disk it sorts in runs of about the page cache's size and
    /// merges them from files.
    /// (https://www.sqlite.org/tempfiles.html#other_temporary_files)
    public func withTemporaryFilesOnDisk<T>(_ body: () throws -> T) throws -> T {
        let previous = try queryFirst("PRAGMA temp_store") { $0.int64(0) } ?? 0
        guard previous == 2, (try? execute("PRAGMA temp_store = FILE")) != nil else { return try body() }
        defer { _ = try? execute("PRAGMA temp_store = \(previous)") }
        return try body()
    }
}
