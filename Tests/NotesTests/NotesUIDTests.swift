import MemoCore
@testable import Notes
import SQLite
import XCTest

/// The uids of to-dos and memos: set on every row, unique, never changed, and
/// the one an importer passes is the one stored.
final class NotesUIDTests: NotesTestCase {
    func testEveryAddedItemGetsADifferentWellFormedUID() throws {
        let todos = try (1...50).map { try makeTodoStore().add(NewTodo(title: "t\($0)")) }
        let memos = try (1...50).map { try makeMemoStore().add(NewMemo(text: "m\($0)")) }
        let uids = todos.map(\.uid) + memos.map(\.uid)
        XCTAssertTrue(uids.allSatisfy(UUID4.isWellFormed), "\(uids)")
        XCTAssertEqual(Set(uids).count, 100)
        XCTAssertEqual(try makeTodoStore().todo(id: todos[7].id).uid, todos[7].uid, "stored as returned")
        XCTAssertEqual(try makeMemoStore().memo(id: memos[7].id).uid, memos[7].uid, "stored as returned")
    }

    func testTheUIDSurvivesEveryChange() throws {
        let todos = makeTodoStore()
        let todo = try todos.add(NewTodo(title: "a", tags: ["x"]))
        _ = try todos.edit(id: todo.id, TodoChanges(title: "b", note: .set("n"), addedTags: ["y"]))
        _ = try todos.markDone(ids: [todo.id])
        _ = try todos.reopen(ids: [todo.id])
        XCTAssertEqual(try todos.todo(id: todo.id).uid, todo.uid)
        XCTAssertEqual(try todos.todos(matching: TodoQuery(status: .all)).map(\.uid), [todo.uid])

        let memos = makeMemoStore()
        let memo = try memos.add(NewMemo(text: "a"))
        _ = try memos.edit(id: memo.id, text: "b", title: "t")
        _ = try memos.setPinned(true, id: memo.id)
        XCTAssertEqual(try memos.memo(id: memo.id).uid, memo.uid)
        XCTAssertEqual(try memos.summaries().map(\.uid), [memo.uid])
    }

    func testAGivenUIDIsStored() throws {
        let uid = "0f0e0d0c-0b0a-4908-8706-050403020100"
        XCTAssertEqual(try makeTodoStore().add(NewTodo(title: "t"), uid: uid).uid, uid)
        XCTAssertEqual(try makeTodoStore().todo(id: 1).uid, uid)
        // To-dos and memos are separate kinds: the same uid may be in both tables.
        XCTAssertEqual(try makeMemoStore().add(NewMemo(text: "m"), uid: uid).uid, uid)
        XCTAssertEqual(try makeMemoStore().memo(id: 1).uid, uid)
    }

    func testADuplicateUIDIsRefusedAndAddsNothing() throws {
        let todos = makeTodoStore()
        let first = try todos.add(NewTodo(title: "first", tags: ["a"]))
        let error = memoError { _ = try todos.add(NewTodo(title: "second", tags: ["b"]), uid: first.uid) }
        XCTAssertEqual(error?.kind, .duplicate)
        XCTAssertEqual(error?.message.en, "a to-do with uid \(first.uid) already exists")
        XCTAssertEqual(error?.message.ko, "uid가 \(first.uid)인 할 일이 이미 있습니다")
        XCTAssertEqual(try todos.todos(matching: TodoQuery(status: .all)).map(\.title), ["first"])
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM todo_tags") { $0.int(0) }, 1)

        let memos = makeMemoStore()
        let memo = try memos.add(NewMemo(text: "first"))
        let memoFailure = memoError { _ = try memos.add(NewMemo(text: "second", tags: ["b"]), uid: memo.uid) }
        XCTAssertEqual(memoFailure?.kind, .duplicate)
        XCTAssertEqual(memoFailure?.message.en, "a memo with uid \(memo.uid) already exists")
        XCTAssertEqual(try memos.count(), 1)
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM memo_tags") { $0.int(0) }, 0)
        assertSearchIndexesIntact()
    }

    func testAMalformedUIDIsBadInput() throws {
        for uid in ["", "not-a-uid", "0F0E0D0C-0B0A-4908-8706-050403020100", "0f0e0d0c0b0a49088706050403020100"] {
            XCTAssertEqual(memoError { _ = try makeTodoStore().add(NewTodo(title: "t"), uid: uid) }?.kind, .badInput)
            XCTAssertEqual(memoError { _ = try makeMemoStore().add(NewMemo(text: "m"), uid: uid) }?.kind, .badInput)
        }
        XCTAssertEqual(try makeTodoStore().counts().open, 0)
        XCTAssertEqual(try makeMemoStore().count(), 0)
    }

    func testTheMigrationGivesExistingRowsUIDsAndRowsInsertedByHandGetOneWhenFilled() throws {
        // A database from before the uid migrations, with rows in it.
        connection = nil
        let path = directory + "/old.db"
        let old = try Connection(path: path)
        var before = Migrator()
        before.register(Array(NotesSchema.migrations.prefix(2)))
        try before.apply(to: old)
        for index in 1...300 {
            try old.execute("INSERT INTO todos (title, created_at, updated_at) VALUES (?, 0, 0)", "t\(index)")
            try old.execute("INSERT INTO memos (text, created_at, updated_at) VALUES (?, 0, 0)", "m\(index)")
        }
        var after = Migrator()
        after.register(NotesSchema.migrations)
        try after.apply(to: old)
        for table in ["todos", "memos"] {
            let uids = try old.query("SELECT uid FROM \(table)") { $0.optionalString(0) }
            XCTAssertEqual(uids.count, 300)
            XCTAssertTrue(uids.allSatisfy { $0.map(UUID4.isWellFormed) ?? false }, "\(table): \(uids.prefix(3))")
            XCTAssertEqual(Set(uids).count, 300, table)
            XCTAssertTrue(uids.allSatisfy { Array($0!)[14] == "4" && "89ab".contains(Array($0!)[19]) }, table)
            // A writer that names no uid (sqlite3 by hand) leaves none, until they are filled in.
            try old.execute(table == "todos" ? "INSERT INTO todos (title, created_at, updated_at) VALUES ('x', 0, 0)"
                                             : "INSERT INTO memos (text, created_at, updated_at) VALUES ('x', 0, 0)")
            let id = old.lastInsertRowID
            XCTAssertEqual(try old.countRowsWithoutUID(in: table), 1)
            XCTAssertEqual(try old.writeTransaction { try old.fillMissingUIDs(in: table) }, 1)
            XCTAssertEqual(try old.countRowsWithoutUID(in: table), 0)
            let filled = try old.queryFirst("SELECT uid FROM \(table) WHERE id = ?", id) { $0.optionalString(0) }
            XCTAssertTrue(filled.flatMap { $0 }.map(UUID4.isWellFormed) ?? false, "\(table): \(String(describing: filled))")
        }
        let triggers = try old.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%uid%'") {
            $0.string(0)
        }
        XCTAssertEqual(triggers, [], "no trigger left for every insert to pay for")
        let store = TodoStore(connection: old, clock: clock, calendar: seoul)
        XCTAssertTrue(UUID4.isWellFormed(try store.todo(id: 1).uid))
    }
}
