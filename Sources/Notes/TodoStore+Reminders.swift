import MemoCore
import SQLite

extension TodoStore {
    /// Open to-dos whose due moment or reminder time is at or after `earliest`
    /// (or later: a date-only due's stored instant is the end of its day, so
    /// its morning reminder may be earlier than `earliest` and the caller
    /// decides), for `memoapp remind`. Done to-dos remind of nothing.
    public func todosWithReminders(from earliest: Timestamp) throws -> [Todo] {
        try connection.query(TodoStore.selectSQL + """
             WHERE done_at IS NULL AND (due_at >= ? OR remind_at >= ?) ORDER BY id
            """, earliest.secondsSince1970, earliest.secondsSince1970, map: TodoStore.todo)
    }
}
