extension Connection {
    /// Runs `body` with this connection's page cache at `kibibytes` (SQLite's
    /// default is 2,000 KiB), then puts the previous size back, also when
    /// `body` throws.
    ///
    /// For one large write: a transaction that inserts millions of rows
    /// touches far more index pages than the default cache holds, and every
    /// page pushed out of it is written to the WAL and read back (each read a
    /// search of the WAL index) before the commit. The cache only grows as
    /// pages are read, so a small write costs nothing more.
    /// (https://www.sqlite.org/pragma.html#pragma_cache_size)
    public func withCacheSize<T>(kibibytes: Int, _ body: () throws -> T) throws -> T {
        precondition(kibibytes > 0, "a cache size in KiB is positive")
        let previous = try queryFirst("PRAGMA cache_size") { $0.int64(0) } ?? -2000
        try execute("PRAGMA cache_size = -\(kibibytes)")
        defer { _ = try? execute("PRAGMA cache_size = \(previous)") }
        return try body()
    }
}
