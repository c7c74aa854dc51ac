/// Rows without a uid (see `Migration(_:addingUIDTo:)`): a row inserted by
/// another program (sqlite3 by hand) may have none. Give them one before
/// copying rows elsewhere, so that every copy carries its identity.
extension Connection {
    /// How many rows of `table` have no uid.
    public func countRowsWithoutUID(in table: String) throws -> Int {
        try queryFirst("SELECT count(*) FROM \(table) WHERE uid IS NULL") { $0.int(0) } ?? 0
    }

    /// Gives every row of `table` without a uid a new random one; returns how
    /// many. Call inside a write transaction.
    @discardableResult
    public func fillMissingUIDs(in table: String) throws -> Int {
        try execute("UPDATE \(table) SET uid = \(Migration.randomUUIDExpression) WHERE uid IS NULL")
        return changes
    }
}
