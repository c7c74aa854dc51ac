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
    ///
    /// No page cache starts with a block of pages
    /// (https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigpagecache):
    /// by default each one allocates 20 pages (87 KB) at once and writes a
    /// header into every one, so all of its memory pages are touched at once.
    /// A statement that needs a temporary b-tree (an `IN (SELECT …)`, an
    /// `INSERT INTO t SELECT … FROM t`, as every undo step's after-images
    /// run) makes a page cache for it that holds a page or two: those writes
    /// were ~50 of the ~550 page faults of `memoapp memo add`, a process that
    /// lives a few milliseconds. Pages are now allocated one at a time as they
    /// are first needed; the cache's size limit is unchanged.
    private static let configured: Void = {
        _ = csqlite_config_memory_statistics(0)
        _ = csqlite_config_page_cache_first_allocation(0)
    }()
}
