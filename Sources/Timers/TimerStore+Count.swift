import SQLite

extension TimerStore {
    /// How many timers there are, ended ones included. Reads only: nothing is
    /// settled or written, so it works on a read-only copy of the database.
    public func count() throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM timers") { $0.int(0) } ?? 0
    }
}
