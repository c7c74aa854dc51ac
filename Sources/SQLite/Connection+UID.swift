import MemoCore

/// Rows without a uid: memoapp's stores give every row one, but a row
/// inserted by hand (sqlite3) has none. Export gives them one first, so that
/// every item in a document has its identity.
extension Connection {
    /// How many rows of `table` have no uid.
    public func countRowsWithoutUID(in table: String) throws -> Int {
        try queryFirst("SELECT count(*) FROM \(table) WHERE uid IS NULL") { $0.int(0) } ?? 0
    }

    /// Gives every row of `table` without a uid a new random one; returns how
    /// many. Call inside a write transaction.
    @discardableResult
    public func fillMissingUIDs(in table: String) throws -> Int {
        let ids = try query("SELECT rowid FROM \(table) WHERE uid IS NULL") { $0.int64(0) }
        for id in ids {
            try execute("UPDATE \(table) SET uid = ? WHERE rowid = ?", UUID4.random(), id)
        }
        return ids.count
    }
}
