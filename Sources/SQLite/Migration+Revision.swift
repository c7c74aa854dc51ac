/// A step for a `rev` column: the revision of a row in its data home, a
/// number that grows with every change of the row. The column only holds
/// it; what sets it (one counter for the whole database, bumped by
/// triggers in the transaction of the change) belongs to the application
/// that composes the tables, so a table's own module reads `rev` without
/// knowing how it is made. Rows start at 0, "no revision yet", until that
/// application gives them one.
extension Migration {
    /// Steps once applied never change: this SQL is frozen.
    public init(_ name: String, addingRevisionTo table: String) {
        self.init(name, sql: "ALTER TABLE \(table) ADD COLUMN rev INTEGER NOT NULL DEFAULT 0 CHECK (rev >= 0);")
    }
}

extension Connection {
    /// The revision of `table`'s row `id`, as the triggers left it: read
    /// after a write inside the same transaction, it is the write's own.
    public func revision(of table: String, id: Int64) throws -> Int64 {
        try queryFirst("SELECT rev FROM \(table) WHERE id = ?", id) { $0.int64(0) } ?? 0
    }
}
