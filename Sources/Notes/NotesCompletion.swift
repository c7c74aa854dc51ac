import SQLite

/// What a shell offers on Tab for to-dos and memos: ids with their titles,
/// and the tags in use. Read in one query each, newest first, at most
/// `limit`, so completion stays quick on a large data home.
public enum NotesCompletion {
    /// Which to-dos: `todo done` offers the open ones, `todo undo` the done ones.
    public enum TodoState: Sendable {
        case any, open, done
    }

    public static func todos(_ state: TodoState, limit: Int, in connection: Connection) throws -> [(id: Int64, title: String)] {
        let condition: String
        switch state {
        case .any: condition = ""
        case .open: condition = "WHERE done_at IS NULL"
        case .done: condition = "WHERE done_at IS NOT NULL"
        }
        return try connection.query("SELECT id, title FROM todos \(condition) ORDER BY id DESC LIMIT ?", limit) { row in
            (row.int64(0), row.string(1))
        }
    }

    /// A memo without a title is described by the start of its text.
    public static func memos(limit: Int, in connection: Connection) throws -> [(id: Int64, title: String)] {
        try connection.query("SELECT id, coalesce(title, substr(text, 1, 80)) FROM memos ORDER BY id DESC LIMIT ?", limit) { row in
            (row.int64(0), row.string(1))
        }
    }

    /// Tags of to-dos and memos, each once, most used first.
    public static func tags(limit: Int, in connection: Connection) throws -> [String] {
        try connection.query("""
            SELECT tag FROM (SELECT tag FROM todo_tags UNION ALL SELECT tag FROM memo_tags)
            GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ?
            """, limit) { $0.string(0) }
    }
}
