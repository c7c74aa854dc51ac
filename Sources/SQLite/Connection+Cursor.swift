import CSQLite

extension Connection {
    /// Runs a query and hands each row to `body` as SQLite produces it, until
    /// the rows run out or `body` returns false: for results too large to hold
    /// (a list printed as it is read) or read only as far as needed (a search
    /// that stops at a full page). The row is valid only during the call.
    public func forEachRow(_ sql: String, arguments: [SQLiteValue], _ body: (Row) throws -> Bool) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        // Reset even when stopped early or failed: an unfinished statement
        // would hold its read snapshot open.
        defer { sqlite3_reset(statement.handle) }
        while try statement.step() {
            guard try body(statement.row) else { return }
        }
    }
}
