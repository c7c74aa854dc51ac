import MemoCore
import SQLite

extension NotesArchive {
    // MARK: Reading a document

    /// A to-do from an export, every field checked as the store would have
    /// written it. Errors are bad input naming the value's path.
    public static func todo(from item: JSONReader) throws -> Todo {
        let titleReader = try item.nonNull("title", expecting: Localized(en: "a title (a string)", ko: "제목(문자열)"))
        let title = try titleReader.string()
        guard title.contains(where: { !$0.isWhitespace }) else {
            throw titleReader.failure(en: "a to-do needs a title", ko: "할 일에는 제목이 필요합니다")
        }
        guard !title.hasLineBreak else {
            throw titleReader.failure(en: "a to-do's title must be one line", ko: "할 일 제목은 한 줄이어야 합니다")
        }
        var priority: Priority?
        if let priorityReader = try item.nullable("priority") {
            switch try priorityReader.string() {
            case "high": priority = .high
            case "medium": priority = .medium
            case "low": priority = .low
            case let other:
                throw priorityReader.failure(en: "'\(other)' is not a priority; use high, medium, low or null",
                                             ko: "'\(other)'은(는) 우선순위가 아닙니다. high, medium, low, null 중 하나를 쓰세요")
            }
        }
        let dueAt = try item.nullableTime("due_at")
        let dueHasTime = try item.bool("due_has_time")
        // Absent in documents from before recurring to-dos: a one-off.
        let rule = try item.member("repeat").map(repeatRule(from:))
        if rule != nil, dueAt == nil {
            throw item.failure(at: "repeat", en: "a repeating to-do needs a due_at", ko: "반복하는 할 일에는 due_at이 필요합니다")
        }
        return Todo(id: try item.id(), uid: try item.uid(), title: title,
                    note: TodoStore.storedNote(try item.nullableString("note")), priority: priority,
                    tags: try tags(in: item), due: dueAt.map { Due(instant: $0, hasTime: dueHasTime) },
                    createdAt: try item.time("created_at"), updatedAt: try item.time("updated_at"),
                    doneAt: try item.nullableTime("done_at"), repeatRule: rule,
                    // Exports made before reminders have no such key.
                    remindAt: item.hasKey("remind_at") ? try item.nullableTime("remind_at") : nil)
    }

    /// A rule from an export, each value checked as the table's CHECKs would.
    static func repeatRule(from reader: JSONReader) throws -> RepeatRule {
        let every = try reader.int("every", in: 1...Int64(RepeatRule.largestEvery))
        let unitName = try reader.string("unit")
        let fromName = try reader.string("from")
        guard let unit = RepeatRule.Unit(rawValue: unitName) else {
            throw reader.failure(at: "unit", en: "'\(unitName)' is not a unit; use day, week, month, year or weekday",
                                 ko: "'\(unitName)'은(는) 단위가 아닙니다. day, week, month, year, weekday 중 하나를 쓰세요")
        }
        guard let from = RepeatRule.Anchor(rawValue: fromName) else {
            throw reader.failure(at: "from", en: "'\(fromName)' is not due or done", ko: "'\(fromName)'은(는) due 또는 done이 아닙니다")
        }
        let day = try reader.nullable("day").map { try $0.int() }
        let rule = RepeatRule(every: Int(every), unit: unit, from: from, anchorDay: day.map { Int(clamping: $0) })
        guard rule.isValid else {
            throw reader.failure(en: "not a rule memoapp keeps (weekday repeats every 1; day is 1 to 31)",
                                 ko: "memoapp이 저장할 수 없는 반복입니다 (weekday는 간격 1, day는 1에서 31)")
        }
        return rule
    }

    /// A memo from an export, every field checked. Errors name the path.
    public static func memo(from item: JSONReader) throws -> Memo {
        let textReader = try item.nonNull("text", expecting: Localized(en: "the memo's text (a string)", ko: "메모 내용(문자열)"))
        let text = try textReader.string()
        do {
            try MemoStore.validate(text: text, isNew: true)
        } catch {
            throw textReader.failure(en: "a memo's text cannot be empty", ko: "메모 내용은 비어 있을 수 없습니다")
        }
        let titleReader = try item.nullable("title")
        let title = try titleReader?.string()
        if let titleReader, title?.hasLineBreak == true {
            throw titleReader.failure(en: "a memo's title must be one line", ko: "메모 제목은 한 줄이어야 합니다")
        }
        var memo = Memo(id: try item.id(), uid: try item.uid(),
                        title: MemoStore.storedTitle(title), text: text,
                        tags: try tags(in: item), isPinned: try item.bool("is_pinned"),
                        createdAt: try item.time("created_at"), updatedAt: try item.time("updated_at"))
        // Only on a conflict copy, and absent from exports older than sync.
        if item.hasKey("conflict_of"), try item.nullable("conflict_of") != nil { memo.conflictOf = try item.uid("conflict_of") }
        return memo
    }

    // MARK: Writing into a data home

    /// Whether the data home holds no to-do and no memo.
    public static func isEmpty(_ connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT NOT EXISTS (SELECT 1 FROM todos) AND NOT EXISTS (SELECT 1 FROM memos)") {
            $0.bool(0)
        } ?? true
    }

    /// Whether a to-do with `uid` is stored.
    public static func containsTodo(uid: String, in connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM todos WHERE uid = ?", uid) { _ in true } ?? false
    }

    /// Whether a memo with `uid` is stored.
    public static func containsMemo(uid: String, in connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM memos WHERE uid = ?", uid) { _ in true } ?? false
    }

    /// Stores `todo` exactly as given (uid, times, done state, tags) under its
    /// own id when `keepingID` (a restore), else under a new one, and returns
    /// the id. Call inside a write transaction.
    /// - Throws: `.duplicate` when a to-do has its uid.
    @discardableResult
    public static func insert(_ todo: Todo, keepingID: Bool, into connection: Connection) throws -> Int64 {
        guard let id = try insertUnlessPresent(todo, keepingID: keepingID, into: connection) else {
            throw MemoError.duplicateUID(.todo, todo.uid)
        }
        return id
    }

    /// `insert`, or nil, storing nothing, when a to-do has `todo`'s uid: the
    /// uid's unique index finds it as the row goes in, which spares an
    /// import a lookup of its own before each insert.
    static func insertUnlessPresent(_ todo: Todo, keepingID: Bool, into connection: Connection) throws -> Int64? {
        // What the table's CHECKs say of a rule, said here too: a bulk write
        // turns them off (`bulkWrite`). A priority is one of
        // its three cases by its type.
        if let rule = todo.repeatRule, !rule.isValid { throw invalidRule(rule) }
        do {
            try connection.insertingRow(of: .todo) {
                try connection.execute("""
                    INSERT INTO todos (id, uid, title, note, priority, due_at, due_has_time, tags, created_at,
                        updated_at, done_at, repeat_every, repeat_unit, repeat_from, repeat_day, remind_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [
                        // Values made here, not boxed as `any SQLiteValueConvertible`:
                        // an import writes millions of rows through this.
                        (keepingID ? todo.id : nil).sqliteValue, todo.uid.sqliteValue, todo.title.sqliteValue,
                        todo.note.sqliteValue, todo.priority?.rawValue.sqliteValue ?? .null,
                        todo.due?.instant.secondsSince1970.sqliteValue ?? .null, (todo.due?.hasTime ?? false).sqliteValue,
                        TagColumn.joined(todo.tags).sqliteValue, todo.createdAt.secondsSince1970.sqliteValue,
                        todo.updatedAt.secondsSince1970.sqliteValue, todo.doneAt?.secondsSince1970.sqliteValue ?? .null,
                        todo.repeatRule?.every.sqliteValue ?? .null, todo.repeatRule?.unit.rawValue.sqliteValue ?? .null,
                        todo.repeatRule?.from.rawValue.sqliteValue ?? .null, todo.repeatRule?.anchorDay.sqliteValue ?? .null,
                        todo.remindAt?.secondsSince1970.sqliteValue ?? .null,
                    ])
            }
        } catch let error as SQLiteError where error.isUniqueViolation(table: "todos", column: "uid") {
            return nil
        }
        let id = connection.lastInsertRowID
        for tag in todo.tags {
            try connection.execute("INSERT INTO todo_tags (todo_id, tag) VALUES (?, ?)", arguments: [.integer(id), .text(tag)])
        }
        return id
    }

    /// Stores `memo` exactly as given under its own id when `keepingID`, else
    /// under a new one, and returns the id. Call inside a write transaction.
    /// - Throws: `.duplicate` when a memo has its uid.
    @discardableResult
    public static func insert(_ memo: Memo, keepingID: Bool, into connection: Connection) throws -> Int64 {
        do {
            try connection.insertingRow(of: .memo) {
                try connection.execute("""
                    INSERT INTO memos (id, uid, title, text, is_pinned, tags, created_at, updated_at, conflict_of)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [(keepingID ? memo.id : nil).sqliteValue, memo.uid.sqliteValue, memo.title.sqliteValue,
                                     memo.text.sqliteValue, memo.isPinned.sqliteValue, TagColumn.joined(memo.tags).sqliteValue,
                                     memo.createdAt.secondsSince1970.sqliteValue, memo.updatedAt.secondsSince1970.sqliteValue,
                                     memo.conflictOf.sqliteValue])
            }
        } catch let error as SQLiteError where error.isUniqueViolation(table: "memos", column: "uid") {
            throw MemoError.duplicateUID(.memo, memo.uid)
        }
        let id = connection.lastInsertRowID
        for tag in memo.tags {
            try connection.execute("INSERT INTO memo_tags (memo_id, tag) VALUES (?, ?)", arguments: [.integer(id), .text(tag)])
        }
        return id
    }

    /// The bad-input error of a rule the table's CHECKs refuse.
    static func invalidRule(_ rule: RepeatRule) -> MemoError {
        MemoError(.badInput, en: "a repeat counts 1 to \(RepeatRule.largestEvery) units (weekday repeats every 1; day is 1 to 31)",
                  ko: "반복 간격은 1에서 \(RepeatRule.largestEvery) 사이여야 합니다 (weekday는 간격 1, day는 1에서 31)")
    }

    // MARK: - Private

    /// The `tags` member: strings exactly as `Tags.normalized` leaves them
    /// (no `#`, no blanks, no repeats in any case).
    private static func tags(in item: JSONReader) throws -> [String] {
        let reader = try item.nonNull("tags")
        let tags = try reader.elements().map { try $0.string() }
        guard (try? Tags.normalized(tags)) == tags else {
            throw reader.failure(en: "tags must be single words without '#', spaces, commas or repeats",
                                 ko: "태그는 '#', 공백, 쉼표, 중복이 없는 한 단어여야 합니다")
        }
        return tags
    }
}

extension NotesArchive {
    /// Deletes every row of `todos` or `memos` (`table`), with the search
    /// index emptied at once rather than a row at a time: the trigger that
    /// unindexes each deleted row is dropped for the delete and put back
    /// with its own SQL, and the index is told `delete-all`. Undoing a
    /// restore of a million items deletes them all; row by row, each delete
    /// rereads its row's every character, pair and triple. Call inside a
    /// write transaction; other tables' triggers still run.
    public static func deleteAll(from table: String, in connection: Connection) throws {
        precondition(tablesWithUIDs.contains(table), "\(table) is not a table of to-dos or memos")
        let index = "\(table)_search"
        let trigger = try connection.queryFirst(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", "\(index)_delete") { $0.string(0) }
        if trigger != nil { try connection.execute("DROP TRIGGER \(index)_delete") }
        try connection.execute("DELETE FROM \(table)")
        if let trigger { try connection.execute(trigger) }
        try connection.execute("INSERT INTO \(index) (\(index)) VALUES ('delete-all')")
    }
}
