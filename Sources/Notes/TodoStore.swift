import MemoCore
import SQLite

/// To-dos in the `todos` table: add, read, change, remove. Every write is one
/// transaction; operations on several ids change all of them or none.
public final class TodoStore {
    /// The database the to-dos live in.
    public let connection: Connection
    let clock: any WallClock
    let calendar: any LocalCalendar

    /// A store over `connection`, whose database has `NotesSchema.migrations`
    /// applied. `clock` stamps created, updated and done times; `calendar`
    /// decides what "today" means for due filters.
    public init(connection: Connection, clock: any WallClock = SystemWallClock(),
                calendar: any LocalCalendar = SystemLocalCalendar()) {
        self.connection = connection
        self.clock = clock
        self.calendar = calendar
    }

    /// Adds a to-do and returns it with its new id.
    /// - Parameter uid: its identity, for importers that carry one; a new
    ///   random UUID when nil.
    /// - Throws: `.badInput` for a uid not in UUID form, `.duplicate` when a
    ///   to-do already has it.
    public func add(_ new: NewTodo, uid: String? = nil) throws -> Todo {
        try TodoStore.validate(title: new.title)
        // A next occurrence keeps the month day the first one started on.
        let repeatRule = try checkedRule(new.repeatRule, due: new.due, isKeepingAnchor: true)
        let tags = try Tags.normalized(new.tags)
        let uid = try UUID4.uid(uid)
        let now = clock.now()
        return try connection.writeTransaction {
            do {
                try connection.insertingRow(of: .todo) {
                    try connection.execute("""
                    INSERT INTO todos (uid, title, note, priority, due_at, due_has_time, tags, created_at, updated_at,
                        repeat_every, repeat_unit, repeat_from, repeat_day, remind_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, uid, new.title, TodoStore.storedNote(new.note), new.priority?.rawValue,
                    new.due?.instant.secondsSince1970, new.due?.hasTime ?? false, TagColumn.joined(tags),
                    now.secondsSince1970, now.secondsSince1970, repeatRule?.every, repeatRule?.unit.rawValue,
                    repeatRule?.from.rawValue, repeatRule?.anchorDay, new.remindAt?.secondsSince1970)
                }
            } catch let error as SQLiteError where error.isUniqueViolation(table: "todos", column: "uid") {
                throw MemoError.duplicateUID(.todo, uid)
            }
            let id = connection.lastInsertRowID
            for tag in tags {
                try connection.execute("INSERT INTO todo_tags (todo_id, tag) VALUES (?, ?)", id, tag)
            }
            var todo = Todo(id: id, uid: uid, title: new.title, note: TodoStore.storedNote(new.note),
                            priority: new.priority, tags: tags, due: new.due, createdAt: now, updatedAt: now,
                            repeatRule: repeatRule, remindAt: new.remindAt)
            todo.rev = try connection.revision(of: "todos", id: id)
            return todo
        }
    }

    /// The to-do with `id`, or a not-found error.
    public func todo(id: Int64) throws -> Todo {
        guard let todo = try connection.queryFirst(TodoStore.selectSQL + " WHERE id = ?", id, map: TodoStore.todo)
        else { throw MemoError.notFound(.todo, ids: [id]) }
        return todo
    }

    /// Marks the to-dos done (those already done keep their first done time)
    /// and returns them. One unknown id: nothing changes. A recurring to-do
    /// that was open gets its next occurrence (see `finish(ids:)`).
    public func markDone(ids: [Int64]) throws -> [Todo] {
        try finish(ids: ids).done
    }

    /// Marks the to-dos done, as `markDone`, and adds the next occurrence of
    /// each recurring one that was open, in the same transaction (so one undo
    /// takes both back). Returns the to-dos marked and the occurrences added.
    public func finish(ids: [Int64]) throws -> (done: [Todo], next: [Todo]) {
        let now = clock.now()
        return try connection.writeTransaction {
            let ids = try connection.existingIDs(ids, of: .todo)
            var added: [Todo] = []
            for id in ids {
                try connection.execute("UPDATE todos SET done_at = ?, updated_at = ? WHERE id = ? AND done_at IS NULL",
                                       now.secondsSince1970, now.secondsSince1970, id)
                guard connection.changes == 1 else { continue }
                if let next = nextOccurrence(of: try todo(id: id), finishedAt: now) { added.append(try add(next)) }
            }
            return (try ids.map(todo(id:)), added)
        }
    }

    /// Opens the to-dos again and returns them. One unknown id: nothing changes.
    public func reopen(ids: [Int64]) throws -> [Todo] {
        let now = clock.now().secondsSince1970
        return try connection.writeTransaction {
            let ids = try connection.existingIDs(ids, of: .todo)
            for id in ids {
                try connection.execute(
                    "UPDATE todos SET done_at = NULL, updated_at = ? WHERE id = ? AND done_at IS NOT NULL", now, id)
            }
            return try ids.map(todo(id:))
        }
    }

    /// Applies `changes` to the to-do and returns it as it is now.
    public func edit(id: Int64, _ changes: TodoChanges) throws -> Todo {
        if let title = changes.title { try TodoStore.validate(title: title) }
        let added = try Tags.normalized(changes.addedTags)
        let removed = Set(try Tags.normalized(changes.removedTags).map { $0.lowercased() })
        let now = clock.now()
        return try connection.writeTransaction {
            var todo = try todo(id: id)
            if let title = changes.title { todo.title = title }
            switch changes.note {
            case .keep: break
            case let .set(note): todo.note = TodoStore.storedNote(note)
            case .remove: todo.note = nil
            }
            switch changes.priority {
            case .keep: break
            case let .set(priority): todo.priority = priority
            case .remove: todo.priority = nil
            }
            switch changes.due {
            case .keep: break
            case let .set(due): todo.due = due
            case .remove: todo.due = nil
            }
            try applyRepeatChanges(changes, to: &todo)
            switch changes.remind {
            case .keep: break
            case let .set(moment): todo.remindAt = moment
            case .remove: todo.remindAt = nil
            }
            var tags = todo.tags.filter { !removed.contains($0.lowercased()) }
            let present = Set(tags.map { $0.lowercased() })
            tags += added.filter { !present.contains($0.lowercased()) }
            todo.tags = tags
            todo.updatedAt = now
            try connection.execute("""
                UPDATE todos SET title = ?, note = ?, priority = ?, due_at = ?, due_has_time = ?, tags = ?,
                    updated_at = ?, repeat_every = ?, repeat_unit = ?, repeat_from = ?, repeat_day = ?, remind_at = ?
                WHERE id = ?
                """, todo.title, todo.note, todo.priority?.rawValue, todo.due?.instant.secondsSince1970,
                todo.due?.hasTime ?? false, TagColumn.joined(tags), now.secondsSince1970, todo.repeatRule?.every,
                todo.repeatRule?.unit.rawValue, todo.repeatRule?.from.rawValue, todo.repeatRule?.anchorDay,
                todo.remindAt?.secondsSince1970, id)
            try connection.execute("DELETE FROM todo_tags WHERE todo_id = ?", id)
            for tag in tags {
                try connection.execute("INSERT INTO todo_tags (todo_id, tag) VALUES (?, ?)", id, tag)
            }
            todo.rev = try connection.revision(of: "todos", id: id)
            return todo
        }
    }

    /// Adds `tags` to each of the to-dos and returns them as they are now.
    /// One unknown id: nothing changes (every missing id is named, as
    /// `finish` and `remove` name them).
    public func addTags(_ tags: [String], to ids: [Int64]) throws -> [Todo] {
        try connection.writeTransaction {
            try connection.existingIDs(ids, of: .todo).map { try edit(id: $0, TodoChanges(addedTags: tags)) }
        }
    }

    /// Removes the to-dos for good and returns them as they were. One unknown
    /// id: nothing is removed.
    public func remove(ids: [Int64]) throws -> [Todo] {
        try connection.writeTransaction {
            let ids = try connection.existingIDs(ids, of: .todo)
            let removed = try ids.map(todo(id:))
            for id in ids {
                try connection.execute("DELETE FROM todos WHERE id = ?", id)
            }
            return removed
        }
    }

    /// Removes every done to-do and returns them as they were.
    public func clearDone() throws -> [Todo] {
        try connection.writeTransaction {
            let removed = try todos(matching: TodoQuery(status: .done, sort: .created))
            try connection.execute("DELETE FROM todos WHERE done_at IS NOT NULL")
            return removed
        }
    }

    // MARK: - Row mapping

    static let selectSQL = """
        SELECT id, title, note, priority, due_at, due_has_time, tags, created_at, updated_at, done_at, uid, remind_at,
            repeat_every, repeat_unit, repeat_from, repeat_day, rev FROM todos
        """

    static func todo(_ row: Row) -> Todo {
        var todo = Todo(id: row.int64(0), uid: row.string(10), title: row.string(1), note: row.optionalString(2),
             priority: row.optionalInt(3).flatMap(Priority.init(rawValue:)),
             tags: TagColumn.split(row.string(6)),
             due: row.optionalDouble(4).map { Due(instant: Timestamp(secondsSince1970: $0), hasTime: row.bool(5)) },
             createdAt: Timestamp(secondsSince1970: row.double(7)),
             updatedAt: Timestamp(secondsSince1970: row.double(8)),
             doneAt: row.optionalDouble(9).map(Timestamp.init(secondsSince1970:)),
             repeatRule: storedRule(row, firstColumn: 12),
             remindAt: row.optionalDouble(11).map(Timestamp.init(secondsSince1970:)))
        todo.rev = row.int64(16)
        return todo
    }

    /// An empty note is no note.
    static func storedNote(_ note: String?) -> String? {
        guard let note, !note.isEmpty else { return nil }
        return note
    }

    /// A title is one line with something in it: lists show a to-do a line.
    public static func validate(title: String) throws {
        guard title.contains(where: { !$0.isWhitespace }) else {
            throw MemoError(.usage, en: "a to-do needs a title", ko: "할 일에는 제목이 필요합니다")
        }
        guard !title.hasLineBreak else {
            throw MemoError(.usage, en: "a to-do's title must be one line; put the rest in its note",
                            ko: "할 일 제목은 한 줄이어야 합니다. 나머지는 메모에 쓰세요")
        }
    }
}
