import SQLite

/// What a shell offers on Tab for timers: ids with a description (the label,
/// else the kind and state); those still running or paused first, newest
/// first, at most `limit`.
public enum TimerCompletion {
    public static func timers(limit: Int, in connection: Connection) throws -> [(id: Int64, title: String)] {
        try connection.query("""
            SELECT id, coalesce(label, kind || ', ' || state) FROM timers
            ORDER BY state IN ('running', 'paused') DESC, id DESC LIMIT ?
            """, limit) { row in (row.int64(0), row.string(1)) }
    }
}
