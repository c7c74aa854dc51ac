import MemoCore
@testable import Notes
import SQLite
import XCTest

/// To-dos and memos out to the export's JSON and back: every field exact,
/// bad values refused with their path.
final class NotesArchiveTests: NotesTestCase {
    /// The JSON as a parsed document would hold it: serialized and parsed
    /// again, so that numbers and strings take the path a file takes.
    private func reparsed(_ json: JSON, at path: JSONPath = JSONPath.root.appending(key: "todos").appending(index: 0))
        throws -> JSONReader {
        JSONReader(try JSON.parse(Array(json.serialized.utf8)), path: path, source: "export.json")
    }

    private func otherDatabase() throws -> Connection {
        let other = try Connection(path: directory + "/other.db")
        var migrator = Migrator()
        migrator.register(NotesSchema.migrations)
        try migrator.apply(to: other)
        return other
    }

    private func failure(_ body: () throws -> Void) -> String? {
        memoError(body).map { XCTAssertEqual($0.kind, .badInput); return $0.message.en }
    }

    func testEveryToDoFieldSurvivesExportAndImport() throws {
        clock.current = Timestamp(secondsSince1970: 1_795_958_644.123456789)
        let store = makeTodoStore()
        let due = Due(instant: Timestamp(secondsSince1970: 1_796_000_000.5), hasTime: true)
        let full = try store.add(NewTodo(title: "회의 🎉 \0 \"q\"", note: "line\nline", priority: .high,
                                         tags: ["work", "집"], due: due,
                                         remindAt: Timestamp(secondsSince1970: 1_795_990_000.987654321)))
        XCTAssertNotNil(full.remindAt)
        clock.advance(0.000_123)
        _ = try store.markDone(ids: [full.id])
        let bare = try store.add(NewTodo(title: "bare"))
        // A reminder and a rule on one to-do: both sides of the format at once.
        let recurring = try store.add(NewTodo(title: "rent", due: due, repeatRule: RepeatRule(every: 1, unit: .month, from: .done),
                                              remindAt: Timestamp(secondsSince1970: 1_795_999_000.25)))
        let exported = try gathered(NotesArchive.exportTodos, connection)
        XCTAssertEqual(exported.count, 3)
        let read = try exported.map { try NotesArchive.todo(from: try reparsed($0)) }
        XCTAssertEqual(read, [try store.todo(id: full.id), bare, recurring])
        XCTAssertNotNil(read[2].repeatRule?.anchorDay)
        XCTAssertNotNil(read[2].remindAt)
        XCTAssertNotNil(read[0].doneAt)

        let other = try otherDatabase()
        try other.writeTransaction {
            for todo in read { try NotesArchive.insert(todo, keepingID: true, into: other) }
        }
        XCTAssertEqual(try gathered(NotesArchive.exportTodos, other), exported)
        let copied = TodoStore(connection: other, clock: clock, calendar: seoul)
        XCTAssertEqual(try copied.todos(matching: TodoQuery(status: .done, tags: try TagFilter(parsing: ["집"]))).map(\.id), [full.id])
        // The search index took the rows too.
        XCTAssertEqual(try NoteSearch(connection: other).search(try SearchQuery("회의")).hits.map(\.id), [full.id])
    }

    func testAnExportMadeBeforeRemindersReadsAsNoReminder() throws {
        let store = makeTodoStore()
        let todo = try store.add(NewTodo(title: "old", remindAt: Timestamp(secondsSince1970: 1_796_000_000)))
        guard case let .object(members) = NotesArchive.json(todo) else { return XCTFail("an object") }
        XCTAssertTrue(members.contains { $0.0 == "remind_at" })
        let older = JSON.object(members.filter { $0.0 != "remind_at" })
        XCTAssertNil(try NotesArchive.todo(from: try reparsed(older)).remindAt)
        let bad = JSON.object(members.map { $0.0 == "remind_at" ? ($0.0, .string("soon")) : $0 })
        XCTAssertNotNil(failure { _ = try NotesArchive.todo(from: try reparsed(bad)) })
    }

    func testEveryMemoFieldSurvivesExportAndImport() throws {
        clock.current = Timestamp(secondsSince1970: 1_795_958_644.987654321)
        let store = makeMemoStore()
        let big = String(repeating: "한글 emoji 🎉 and NUL \0 ", count: 40_000)
        let first = try store.add(NewMemo(text: big, title: "큰 메모", tags: ["a", "B"], isPinned: true))
        let second = try store.add(NewMemo(text: "plain"))
        let exported = try gathered(NotesArchive.exportMemos, connection)
        let read = try exported.map { try NotesArchive.memo(from: try reparsed($0)) }
        XCTAssertEqual(read, [first, second])
        let other = try otherDatabase()
        try other.writeTransaction { for memo in read { try NotesArchive.insert(memo, keepingID: true, into: other) } }
        XCTAssertEqual(try gathered(NotesArchive.exportMemos, other), exported)
        XCTAssertEqual(Array(try MemoStore(connection: other).memo(id: first.id).text.utf8), Array(big.utf8))
    }

    func testInsertingWithoutKeepingTheIDGivesANewOneAndADuplicateUIDIsRefused() throws {
        let store = makeTodoStore()
        let existing = try store.add(NewTodo(title: "here already"))
        let incoming = Todo(id: existing.id, uid: UUID4.random(), title: "incoming", tags: ["x"],
                            createdAt: clock.now(), updatedAt: clock.now())
        let id = try connection.writeTransaction { try NotesArchive.insert(incoming, keepingID: false, into: connection) }
        XCTAssertEqual(id, existing.id + 1)
        XCTAssertTrue(try NotesArchive.containsTodo(uid: incoming.uid, in: connection))
        XCTAssertFalse(try NotesArchive.containsTodo(uid: UUID4.random(), in: connection))
        let error = memoError {
            try connection.writeTransaction { _ = try NotesArchive.insert(incoming, keepingID: false, into: connection) }
        }
        XCTAssertEqual(error?.kind, .duplicate)
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all)).count, 2)
        assertSearchIndexesIntact()
    }

    func testEmptyMeansNoToDoAndNoMemo() throws {
        XCTAssertTrue(try NotesArchive.isEmpty(connection))
        let memo = try makeMemoStore().add(NewMemo(text: "m"))
        XCTAssertFalse(try NotesArchive.isEmpty(connection))
        try makeMemoStore().remove(ids: [memo.id])
        XCTAssertTrue(try NotesArchive.isEmpty(connection))
        _ = try makeTodoStore().add(NewTodo(title: "t"))
        XCTAssertFalse(try NotesArchive.isEmpty(connection))
    }

    func testBadToDoFieldsAreRefusedNamingTheirPath() throws {
        let good = NotesArchive.json(try makeTodoStore().add(NewTodo(title: "t", tags: ["a"])))
        func with(_ key: String, _ value: JSON?) -> JSON {
            guard case var .object(members) = good else { return good }
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if let value { members[index].1 = value } else { members.remove(at: index) }
            }
            return .object(members)
        }
        let cases: [(JSON, String)] = [
            (with("title", .string("  ")), "export.json: $.todos[0].title: a to-do needs a title"),
            (with("title", nil), "export.json: $.todos[0].title: missing: expected a title (a string)"),
            (with("title", .int(3)), "export.json: $.todos[0].title: expected a string, found an integer"),
            (with("note", nil), "export.json: $.todos[0].note: missing (null is allowed)"),
            (with("priority", .string("urgent")), "export.json: $.todos[0].priority: 'urgent' is not a priority; use high, medium, low or null"),
            (with("tags", .strings(["#a"])), "export.json: $.todos[0].tags: tags must be single words without '#', spaces, commas or repeats"),
            (with("tags", .strings(["a", "A"])), "export.json: $.todos[0].tags: tags must be single words without '#', spaces, commas or repeats"),
            (with("tags", .array([.int(1)])), "export.json: $.todos[0].tags[0]: expected a string, found an integer"),
            (with("created_at", .string("yesterday")), "export.json: $.todos[0].created_at: 'yesterday' is not an RFC 3339 time such as 2026-11-29T13:24:04Z"),
            (with("created_at", .null), "export.json: $.todos[0].created_at: expected a time, found null"),
            (with("due_has_time", .string("no")), "export.json: $.todos[0].due_has_time: expected true or false, found a string"),
            (with("id", .int(0)), "export.json: $.todos[0].id: 0 is outside 1...9007199254740991"),
            (with("uid", .string("7")), "export.json: $.todos[0].uid: '7' is not a uid (a UUID: 8-4-4-4-12 lowercase hex digits)"),
            // Values a later command could not handle.
            (with("id", .int(Int64.max)), "export.json: $.todos[0].id: 9223372036854775807 is outside 1...9007199254740991"),
            (with("title", .string("line1\nline2")), "export.json: $.todos[0].title: a to-do's title must be one line"),
            (with("title", .string("a\rb")), "export.json: $.todos[0].title: a to-do's title must be one line"),
            (with("due_at", .string("0001-01-01T00:00:00+00:01")),
             "export.json: $.todos[0].due_at: '0001-01-01T00:00:00+00:01' is outside the years 1 to 9999 (UTC)"),
            (with("done_at", .string("9999-12-31T23:59:59-00:01")),
             "export.json: $.todos[0].done_at: '9999-12-31T23:59:59-00:01' is outside the years 1 to 9999 (UTC)"),
            (with("created_at", .string("0000-12-31T00:00:00Z")),
             "export.json: $.todos[0].created_at: '0000-12-31T00:00:00Z' is not an RFC 3339 time such as 2026-11-29T13:24:04Z"),
        ]
        for (json, message) in cases {
            XCTAssertEqual(failure { _ = try NotesArchive.todo(from: try self.reparsed(json)) }, message)
        }
    }

    func testAMemoTitleOfTwoLinesIsRefused() throws {
        let memo = NotesArchive.json(try makeMemoStore().add(NewMemo(text: "m", title: "t")))
        guard case var .object(members) = memo else { return XCTFail() }
        members[members.firstIndex { $0.0 == "title" }!].1 = .string("one\u{2028}two")
        let path = JSONPath.root.appending(key: "memos").appending(index: 0)
        XCTAssertEqual(failure { _ = try NotesArchive.memo(from: try self.reparsed(.object(members), at: path)) },
                       "export.json: $.memos[0].title: a memo's title must be one line")
    }

    func testAMemoWithoutTextIsRefused() throws {
        let memo = NotesArchive.json(try makeMemoStore().add(NewMemo(text: "m")))
        guard case var .object(members) = memo else { return XCTFail() }
        members[members.firstIndex { $0.0 == "text" }!].1 = .string(" \n\0")
        let path = JSONPath.root.appending(key: "memos").appending(index: 2)
        XCTAssertEqual(failure { _ = try NotesArchive.memo(from: try self.reparsed(.object(members), at: path)) },
                       "export.json: $.memos[2].text: a memo's text cannot be empty")
    }

    func testDeleteAllEmptiesATableAndItsSearchIndexAndLeavesTheTriggerInPlace() throws {
        let todos = makeTodoStore()
        for title in ["회의 준비", "meeting notes", "대한민국"] { _ = try todos.add(NewTodo(title: title)) }
        _ = try makeMemoStore().add(NewMemo(text: "회의록"))
        try connection.writeTransaction { try NotesArchive.deleteAll(from: "todos", in: connection) }
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM todos") { $0.int(0) }, 0)
        assertSearchIndexesIntact()
        let search = NoteSearch(connection: connection)
        XCTAssertEqual(try search.search(SearchQuery("회의")).hits.count, 1, "the memo stays found, the to-do is gone")
        // The trigger is back: a to-do added and removed now leaves the index in step.
        let again = try todos.add(NewTodo(title: "회의 다시"))
        XCTAssertEqual(try search.search(SearchQuery("다시")).hits.map(\.id), [again.id])
        _ = try todos.remove(ids: [again.id])
        assertSearchIndexesIntact()
        XCTAssertEqual(try connection.queryFirst(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'todos_search_delete'") { $0.int(0) }, 1)
    }

    func testABulkWriteLeavesTheSchemaAsTheMigrationsMadeIt() throws {
        let schema = { try self.connection.query(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") { row in
                [row.string(0), row.string(1), row.string(2), row.isNull(3) ? "" : row.string(3)] } }
        let before = try schema()
        XCTAssertTrue(before.contains { $0[1] == "todos_by_due" } && before.contains { $0[1] == "memos_search_insert" },
                      "the objects set aside exist to begin with")
        let stored = try connection.writeTransaction {
            try NotesArchive.bulkWrite(in: connection) { _ -> [String] in
                // While the body runs, the plain indexes and the indexing triggers are gone; the uid index stays.
                let names = try connection.query("SELECT name FROM sqlite_master") { $0.string(0) }
                XCTAssertFalse(names.contains("todos_by_due") || names.contains("memos_by_pin_and_age"))
                XCTAssertFalse(names.contains("todos_search_insert") || names.contains("memos_search_insert"))
                XCTAssertTrue(names.contains("todos_by_uid") && names.contains("memos_by_uid"))
                let todos = makeTodoStore()
                let memos = makeMemoStore()
                return [try todos.add(NewTodo(title: "회의 준비")).uid, try todos.add(NewTodo(title: "meeting notes")).uid,
                        try memos.add(NewMemo(text: "대한민국 회의록")).uid]
            }
        }
        XCTAssertEqual(try schema(), before, "every index and trigger is back with its own SQL")
        for index in ["todos_search", "memos_search"] {
            XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM \(index)_config WHERE k = 'hashsize'") {
                $0.int(0) }, 0, "\(index) keeps FTS5's default segment size")
        }
        assertSearchIndexesIntact()
        let search = NoteSearch(connection: connection)
        XCTAssertEqual(Set(try search.search(SearchQuery("회의")).hits.map(\.uid)), [stored[0], stored[2]],
                       "rows written in the body are found")
        XCTAssertEqual(try search.search(SearchQuery("meeting")).hits.map(\.uid), [stored[1]])
        // The triggers are back: a to-do added now is indexed as it is written.
        let later = try makeTodoStore().add(NewTodo(title: "나중에 회의"))
        XCTAssertEqual(try search.search(SearchQuery("나중")).hits.map(\.id), [later.id])
        XCTAssertEqual(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
    }

    func testABulkWriteIndexesAChunkAtATimeAndEveryRowByItsEnd() throws {
        let time = Timestamp(secondsSince1970: 1_700_000_000)
        func todo(_ id: Int64) -> Todo {
            Todo(id: id, uid: UUID4.random(), title: "할 일 item\(id)x", tags: ["tag\(id)x"], createdAt: time, updatedAt: time)
        }
        func memo(_ id: Int64) -> Memo {
            Memo(id: id, uid: UUID4.random(), text: "메모 note\(id)x", createdAt: time, updatedAt: time)
        }
        let search = NoteSearch(connection: connection)
        func found(_ word: String) throws -> [Int64] { try search.search(SearchQuery(word)).hits.map(\.id).sorted() }
        // 3 comes after a chunk indexed the to-dos up to 6: below the chunks' mark, it is reached by a rebuild.
        let todoIDs: [Int64] = [5, 6, 7, 3, 9]
        let memoIDs: [Int64] = [2, 1, 4]
        try connection.writeTransaction {
            try NotesArchive.bulkWrite(in: connection, indexingEvery: 2) { bulk in
                for (number, id) in todoIDs.enumerated() {
                    try NotesArchive.insert(todo(id), keepingID: true, into: connection)
                    try bulk.itemStored()
                    if number == 1 {
                        XCTAssertEqual(try found("item5x"), [5], "a chunk is indexed while the body runs")
                        XCTAssertEqual(try found("tag6x"), [6])
                    }
                    if number == 2 { XCTAssertEqual(try found("item7x"), [], "the next chunk is not due yet") }
                }
                for id in memoIDs {
                    try NotesArchive.insert(memo(id), keepingID: true, into: connection)
                    try bulk.itemStored()
                }
                // Not told: indexed at the end.
                try NotesArchive.insert(memo(8), keepingID: true, into: connection)
            }
        }
        assertSearchIndexesIntact()
        for id in todoIDs { XCTAssertEqual(try found("item\(id)x"), [id], "to-do \(id)") }
        for id in memoIDs + [8] { XCTAssertEqual(try found("note\(id)x"), [id], "memo \(id)") }
        XCTAssertEqual(try found("할"), todoIDs.sorted())
        for index in ["todos_search", "memos_search"] {
            XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM \(index)_config WHERE k = 'hashsize'") {
                $0.int(0) }, 0, "\(index) keeps FTS5's default segment size")
        }
    }

    func testABulkWriteChecksRulesItselfAndLeavesSQLitesChecksOnAfter() throws {
        let badPriority = "INSERT INTO todos (title, created_at, updated_at, priority) VALUES ('x', 0, 0, 7)"
        let badRule = RepeatRule(every: 1000, unit: .day, from: .due, anchorDay: nil)
        var todo = try makeTodoStore().add(NewTodo(title: "template"))
        try connection.execute("DELETE FROM todos")
        todo.repeatRule = badRule
        XCTAssertThrowsError(try connection.writeTransaction {
            try NotesArchive.bulkWrite(in: connection) { _ in
                try NotesArchive.insert(todo, keepingID: false, into: connection)
            }
        }) { XCTAssertEqual(($0 as? MemoError)?.kind, .badInput, "a rule the CHECKs refuse is refused before SQLite") }
        XCTAssertThrowsError(try connection.execute(badPriority), "SQLite checks again after a failed bulk write")
        todo.repeatRule = nil
        try connection.writeTransaction {
            try NotesArchive.bulkWrite(in: connection) { _ in
                try NotesArchive.insert(todo, keepingID: false, into: connection)
            }
        }
        XCTAssertThrowsError(try connection.execute(badPriority), "and after one that succeeded")
        var imported = ImportedTodo(uid: todo.uid, title: "t")
        imported.repeatRule = badRule
        XCTAssertThrowsError(try TodoStore.check(imported), "another tool's rule is checked as it is read") {
            XCTAssertEqual(($0 as? MemoError)?.kind, .badInput)
        }
    }
}

/// Everything an export function hands over, gathered.
private func gathered(_ export: (Connection, (JSON) throws -> Void) throws -> Void,
                      _ connection: Connection) throws -> [JSON] {
    var items: [JSON] = []
    try export(connection) { items.append($0) }
    return items
}
