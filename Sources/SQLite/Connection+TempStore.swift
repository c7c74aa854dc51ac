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
