import CSQLite

/// Settings of the SQLite library for the whole process. SQLite accepts them
/// only before it initializes itself (at its first connection, or the first
/// `sqlite3_auto_extension`), so `Connection` applies them before it opens
/// one, and a program that calls SQLite otherwise first calls `configure()`.
public enum SQLiteLibrary {
    /// Applies the settings once; later calls, and calls after SQLite has
    /// initialized itself, change nothing.
    public static func configure() {
        _ = configured
    }

    /// Memory statistics off (https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus):
    /// with them on, every allocation SQLite makes takes a process-wide mutex
    /// and updates counters, and reading a database's schema allocates
    /// thousands of times: about 8% of the instructions of a short command
    /// such as `memoapp todo add`. Nothing here reads the statistics
    /// (`sqlite3_memory_used`) or sets a soft heap limit, which needs them.
    private static let configured: Void = {
        _ = csqlite_config_memory_statistics(0)
    }()
}
