import MemoCore
import SQLite

/// To-dos and memos in memoapp's export document: every stored field, times
/// as exact RFC 3339 (`Timestamp.exactRFC3339`), so that an import gives back
/// the same rows.
///
///     {"id": 3, "uid": "…", "title": "Buy milk", "note": null, "priority": "high",
///      "tags": ["home"], "due_at": "2026-11-30T14:59:59Z", "due_has_time": false,
///      "created_at": "…", "updated_at": "…", "done_at": null, "remind_at": null,
///      "repeat": {"every": 1, "unit": "month", "from": "due", "day": 31}}
///     {"id": 1, "uid": "…", "title": null, "text": "…", "is_pinned": true,
///      "tags": [], "created_at": "…", "updated_at": "…"}
///
/// A memo that is a conflict copy sync made also has `"conflict_of": "…uid…"`.
public enum NotesArchive {
    /// The module's tables whose rows carry a uid.
    public static let tablesWithUIDs = ["todos", "memos"]

    /// Hands every to-do to `body`, by id, as its row is read: an export of
    /// any size holds one item at a time. Call inside a read transaction, so
    /// that the whole document is one snapshot.
    public static func exportTodos(from connection: Connection, _ body: (JSON) throws -> Void) throws {
        try connection.forEachRow(TodoStore.selectSQL + " ORDER BY id", arguments: []) { row in
            try body(json(TodoStore.todo(row)))
            return true
        }
    }

    /// Hands every memo to `body`, by id, text whole, as its row is read.
    /// Call inside a read transaction.
    public static func exportMemos(from connection: Connection, _ body: (JSON) throws -> Void) throws {
        try connection.forEachRow(
            "SELECT id, uid, title, text, is_pinned, tags, created_at, updated_at, conflict_of FROM memos ORDER BY id",
            arguments: []
        ) { row in
            var memo = Memo(id: row.int64(0), uid: row.string(1), title: row.optionalString(2), text: row.string(3),
                            tags: TagColumn.split(row.string(5)), isPinned: row.bool(4),
                            createdAt: Timestamp(secondsSince1970: row.double(6)),
                            updatedAt: Timestamp(secondsSince1970: row.double(7)))
            memo.conflictOf = row.optionalString(8)
            try body(json(memo))
            return true
        }
    }

    /// One to-do as the export writes it.
    public static func json(_ todo: Todo) -> JSON {
        .object([
            ("id", .int(todo.id)),
            ("uid", .string(todo.uid)),
            ("title", .string(todo.title)),
            ("note", .optional(todo.note)),
            ("priority", .optional(todo.priority?.name)),
            ("tags", .strings(todo.tags)),
            ("due_at", .exactTime(todo.due?.instant)),
            ("due_has_time", .bool(todo.due?.hasTime ?? false)),
            ("created_at", .exactTime(todo.createdAt)),
            ("updated_at", .exactTime(todo.updatedAt)),
            ("done_at", .exactTime(todo.doneAt)),
            ("remind_at", .exactTime(todo.remindAt)),
            ("repeat", todo.repeatRule.map(json) ?? .null),
        ])
    }

    /// A rule as the export writes it: every stored value, the month day too.
    public static func json(_ rule: RepeatRule) -> JSON {
        .object([
            ("every", .int(Int64(rule.every))),
            ("unit", .string(rule.unit.rawValue)),
            ("from", .string(rule.from.rawValue)),
            ("day", rule.anchorDay.map { .int(Int64($0)) } ?? .null),
        ])
    }

    /// One memo as the export writes it; `conflict_of` only on a conflict
    /// copy sync made (older readers pass over a member they do not know).
    public static func json(_ memo: Memo) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .int(memo.id)),
            ("uid", .string(memo.uid)),
            ("title", .optional(memo.title)),
            ("text", .string(memo.text)),
            ("is_pinned", .bool(memo.isPinned)),
            ("tags", .strings(memo.tags)),
            ("created_at", .exactTime(memo.createdAt)),
            ("updated_at", .exactTime(memo.updatedAt)),
        ]
        if let original = memo.conflictOf { members.append(("conflict_of", .string(original))) }
        return .object(members)
    }
}

// MARK: - Stored values

extension NotesArchive {
    /// Every to-do and memo whose stored values an import would refuse:
    /// titles that are blank or span lines, times outside the years 1 to
    /// 9999 (or not numbers at all), memo text with nothing in it.
    public static func storedValueProblems(in connection: Connection) throws -> [StoredValueProblem] {
        var found: [StoredValueProblem] = []
        for todo in try connection.query(TodoStore.selectSQL + " ORDER BY id", map: TodoStore.todo) {
            var problems: [String] = []
            if !todo.title.contains(where: { !$0.isWhitespace }) { problems.append("the title is blank") }
            if todo.title.hasLineBreak { problems.append("the title spans lines") }
            problems += timeProblems([("created_at", todo.createdAt), ("updated_at", todo.updatedAt),
                                      ("done_at", todo.doneAt), ("due_at", todo.due?.instant),
                                      ("remind_at", todo.remindAt)])
            if !problems.isEmpty { found.append(StoredValueProblem(table: "todos", id: todo.id, problems: problems)) }
        }
        let memos = try connection.query("SELECT id, title, text, created_at, updated_at FROM memos ORDER BY id") {
            (id: $0.int64(0), title: $0.optionalString(1), text: $0.string(2),
             created: Timestamp(secondsSince1970: $0.double(3)), updated: Timestamp(secondsSince1970: $0.double(4)))
        }
        for memo in memos {
            var problems: [String] = []
            if memo.title?.hasLineBreak == true { problems.append("the title spans lines") }
            if (try? MemoStore.validate(text: memo.text, isNew: true)) == nil { problems.append("the text is empty") }
            problems += timeProblems([("created_at", memo.created), ("updated_at", memo.updated)])
            if !problems.isEmpty { found.append(StoredValueProblem(table: "memos", id: memo.id, problems: problems)) }
        }
        return found
    }

    private static func timeProblems(_ times: [(String, Timestamp?)]) -> [String] {
        times.compactMap { name, time in
            guard let time, !time.isSupported else { return nil }
            return "\(name) (\(time.secondsSince1970)) is outside the years 1 to 9999"
        }
    }
}
