/// The counters of `AUTOINCREMENT` tables, kept by SQLite in `sqlite_sequence`
/// (https://www.sqlite.org/autoinc.html): the largest id a table has ever
/// given, so that an id is never given twice, even after its row is removed.
extension Connection {
    /// The largest id `table` has ever given; 0 when it has given none.
    public func lastAutoincrementID(of table: String) throws -> Int64 {
        try queryFirst("SELECT seq FROM sqlite_sequence WHERE name = ?", table) { $0.int64(0) } ?? 0
    }

    /// Makes `table` give ids above `id` from now on (a restore carries the
    /// counter of the data home it came from). Never lowers the counter.
    /// Call inside a write transaction.
    public func raiseAutoincrementID(of table: String, to id: Int64) throws {
        guard id > (try lastAutoincrementID(of: table)) else { return }
        try execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", id, table)
        if changes == 0 {
            try execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", table, id)
        }
    }
}
