import MemoCore
import SQLite

extension TodoStore {
    /// Open to-dos whose due moment or reminder time lies from `earliest`
    /// through `latest`, for `memoapp remind` (a date-only due's stored
    /// instant is the end of its day, its reminder that morning: the caller
    /// widens the window by a day). Done to-dos remind of nothing. Both
    /// columns are indexed, so a look reads the to-dos near now, not all.
    public func todosWithReminders(from earliest: Timestamp, through latest: Timestamp) throws -> [Todo] {
        try connection.query(TodoStore.selectSQL + """
             WHERE done_at IS NULL AND (due_at BETWEEN ? AND ? OR remind_at BETWEEN ? AND ?) ORDER BY id
            """, earliest.secondsSince1970, latest.secondsSince1970, earliest.secondsSince1970, latest.secondsSince1970,
            map: TodoStore.todo)
    }
}
