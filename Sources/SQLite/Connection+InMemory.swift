extension Connection {
    /// A private database that lives in memory and is gone when the
    /// connection closes (https://www.sqlite.org/inmemorydb.html): for
    /// building something to compare against without writing a file
    /// anywhere. Foreign keys are on as in every connection; the journal
    /// stays in memory (such a database cannot be in WAL mode) and no
    /// application_id is claimed.
    public static func inMemory() throws -> Connection {
        try Connection(path: ":memory:", configuration: Configuration(journalMode: nil))
    }
}
