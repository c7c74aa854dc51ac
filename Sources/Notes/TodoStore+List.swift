import MemoCore
import SQLite

/// Which to-dos `TodoStore.todos(matching:)` returns, and in what order.
public struct TodoQuery: Sendable {
    /// Open, done, or both.
    public enum Status: Sendable {
        case open
        case done
        case all
    }

    /// Due windows in the store's local calendar.
    public enum DueWindow: String, Sendable, CaseIterable {
        /// Due on today's local date (including earlier today, already overdue).
        case today
        /// Due before now.
        case overdue
        /// Due by the end of the sixth day after today, overdue ones included:
        /// what is left to do this week.
        case week
    }

    /// The order of a list. Ties always fall back to the id, oldest first.
    public enum Sort: String, Sendable, CaseIterable {
        /// Soonest due first, undated last; then higher priority.
        case due
        /// Higher priority first, none last; then soonest due.
        case priority
        /// In the order they were added.
        case created
        /// The last added first: what a screen that adds at the top shows.
        case newest
    }

    /// Open (the default), done, or all.
    public var status: Status
    /// Only to-dos with every required tag and no excluded one.
    public var tags: TagFilter
    /// Only to-dos due in this window.
    public var due: DueWindow?
    /// Only to-dos due before this moment (undated ones never are).
    public var dueBefore: Timestamp?
    /// Only to-dos due after this moment.
    public var dueAfter: Timestamp?
    /// Only to-dos of this priority.
    public var priority: Priority?
    /// The order.
    public var sort: Sort
    /// At most this many.
    public var limit: Int?
    /// Only the to-dos after this one in the query's order: the next page of
    /// a list read a page at a time (keyset paging, stable while to-dos are
    /// added or removed, unlike an offset).
    public var after: TodoPosition?

    /// A query; by default every open to-do, soonest due first.
    public init(status: Status = .open, tags: TagFilter = TagFilter(), due: DueWindow? = nil, priority: Priority? = nil,
                sort: Sort = .due, limit: Int? = nil) {
        self.status = status
        self.tags = tags
        self.due = due
        self.priority = priority
        self.sort = sort
        self.limit = limit
    }
}

extension TodoStore {
    /// The to-dos `query` selects, in its order.
    public func todos(matching query: TodoQuery) throws -> [Todo] {
        var todos: [Todo] = []
        try forEachTodo(matching: query) { todos.append($0) }
        return todos
    }

    /// Hands each to-do `query` selects to `body`, in its order, as it is
    /// read: a list of any length is printed without being held. Open to-dos
    /// soonest due first (the plain `todo list`) come straight from an index
    /// in that order (`NotesSchema`, notes.9), so the first arrives at once
    /// however many there are; other orders are sorted first.
    public func forEachTodo(matching query: TodoQuery, _ body: (Todo) throws -> Void) throws {
        var (sql, arguments) = try selection(query)
        sql = TodoStore.selectSQL + sql
        switch query.sort {
        // The terms of `todos_open_in_due_order`, as they are written there.
        case .due: sql += " ORDER BY due_at IS NULL, due_at, priority IS NULL, priority DESC, id"
        case .priority: sql += " ORDER BY priority IS NULL, priority DESC, due_at IS NULL, due_at, id"
        case .created: sql += " ORDER BY id"
        case .newest: sql += " ORDER BY id DESC"
        }
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(max(0, limit))))
        }
        try connection.forEachRow(sql, arguments: arguments) { row in
            try body(TodoStore.todo(row))
            return true
        }
    }

    /// The largest id among the to-dos `query` selects (its limit aside), or
    /// nil when it selects none: a list's ids are padded to its width before
    /// the first line is written.
    public func largestID(matching query: TodoQuery) throws -> Int64? {
        let (sql, arguments) = try selection(query)
        return try connection.queryFirst("SELECT max(id) FROM todos" + sql, arguments: arguments) {
            $0.isNull(0) ? nil : $0.int64(0)
        } ?? nil
    }

    /// How many to-dos there are, open and done.
    public func counts() throws -> (open: Int, done: Int) {
        try connection.queryFirst(
            "SELECT count(*) FILTER (WHERE done_at IS NULL), count(*) FILTER (WHERE done_at IS NOT NULL) FROM todos"
        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
    }

    /// The instants a window spans, now: a nil start means "from any time".
    public func bounds(of window: TodoQuery.DueWindow) -> (start: Timestamp?, end: Timestamp) {
        let now = clock.now()
        let today = calendar.date(at: now)
        switch window {
        case .today: return (calendar.startOfDay(today), calendar.endOfDay(today))
        case .overdue: return (nil, now)
        case .week: return (nil, calendar.endOfDay(today.adding(days: 6)))
        }
    }

    /// The WHERE clause of `query` (empty when it selects every to-do) and its arguments.
    private func selection(_ query: TodoQuery) throws -> (String, [SQLiteValue]) {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        switch query.status {
        case .open: conditions.append("done_at IS NULL")
        case .done: conditions.append("done_at IS NOT NULL")
        case .all: break
        }
        let tagged = query.tags.conditions(table: "todo_tags", key: "todo_id")
        conditions += tagged.conditions
        arguments += tagged.arguments
        if let priority = query.priority {
            conditions.append("priority = ?")
            arguments.append(.integer(Int64(priority.rawValue)))
        }
        if let after = query.after {
            // Row values compared in the order's own terms (NULLs last, priority
            // descending as its negation), so the page starts right after `after`.
            let due = "due_at IS NULL, coalesce(due_at, 0)"
            let priority = "priority IS NULL, -coalesce(priority, 0)"
            let dueValues: [SQLiteValue] = [.integer(after.dueAt == nil ? 1 : 0), .real(after.dueAt ?? 0)]
            let priorityValues: [SQLiteValue] = [.integer(after.priority == nil ? 1 : 0),
                                                 .integer(-Int64(after.priority ?? 0))]
            switch query.sort {
            case .due:
                conditions.append("(\(due), \(priority), id) > (?, ?, ?, ?, ?)")
                arguments += dueValues + priorityValues + [.integer(after.id)]
            case .priority:
                conditions.append("(\(priority), \(due), id) > (?, ?, ?, ?, ?)")
                arguments += priorityValues + dueValues + [.integer(after.id)]
            case .created:
                conditions.append("id > ?")
                arguments.append(.integer(after.id))
            case .newest:
                conditions.append("id < ?")
                arguments.append(.integer(after.id))
            }
        }
        if let window = query.due {
            let (start, end) = bounds(of: window)
            if let start {
                conditions.append("due_at >= ?")
                arguments.append(.real(start.secondsSince1970))
            }
            conditions.append(window == .overdue ? "due_at < ?" : "due_at <= ?")
            arguments.append(.real(end.secondsSince1970))
        }
        if let before = query.dueBefore {
            conditions.append("due_at < ?")
            arguments.append(.real(before.secondsSince1970))
        }
        if let after = query.dueAfter {
            conditions.append("due_at > ?")
            arguments.append(.real(after.secondsSince1970))
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}

/// Where a page of to-dos ended: the values the list's orders sort by.
public struct TodoPosition: Sendable, Equatable {
    /// The due instant in seconds since 1970, nil when none.
    public var dueAt: Double?
    /// The priority's raw value, nil when none.
    public var priority: Int?
    public var id: Int64

    public init(dueAt: Double?, priority: Int?, id: Int64) {
        self.dueAt = dueAt
        self.priority = priority
        self.id = id
    }

    /// The position of `todo`, as stored.
    public init(_ todo: Todo) {
        self.init(dueAt: todo.due?.instant.secondsSince1970, priority: todo.priority?.rawValue, id: todo.id)
    }
}
