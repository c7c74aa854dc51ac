import MemoCore
@testable import Notes
import SQLite
import XCTest

/// `TodoStore.importTodos` and `MemoStore.importMemos`: all or nothing, times
/// as the source had them, and nothing added twice.
final class NotesImportStoreTests: NotesTestCase {
    private let uidA = "250fccc0-226d-43ba-8401-5f0ff587bb7f"
    private let uidB = "0ca23634-f791-47ef-aa08-f3bcc2d13092"

    private func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    func testImportedToDosKeepEveryFieldAndTheirTimes() throws {
        let store = makeTodoStore()
        let due = Due.endOf(CivilDate(year: 2026, month: 12, day: 1), in: seoul)
        let outcome = try store.importTodos([
            ImportedTodo(uid: uidA, title: "Buy milk", note: "2 L", priority: .high, tags: ["+home", "@shop"], due: due,
                         createdAt: time(1000), updatedAt: time(3000), isDone: true, doneAt: time(2000)),
            ImportedTodo(uid: uidB, title: "회의록"),
        ])
        XCTAssertEqual(outcome, ImportOutcome(addedIDs: [1, 2], addedCount: 2, alreadyPresent: 0))
        let first = try store.todo(id: 1)
        XCTAssertEqual(first, Todo(id: 1, uid: uidA, title: "Buy milk", note: "2 L", priority: .high,
                                   tags: ["+home", "@shop"], due: due, createdAt: time(1000), updatedAt: time(3000),
                                   doneAt: time(2000)))
        let second = try store.todo(id: 2)
        XCTAssertEqual(second.createdAt, clock.now(), "no creation time: the import's")
        XCTAssertEqual(second.updatedAt, clock.now())
        XCTAssertFalse(second.isDone)
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all, tags: try TagFilter(parsing: ["+home"]))).map(\.id), [1])
        assertSearchIndexesIntact()
    }

    func testMissingTimesAreFilledFromTheOthers() throws {
        let store = makeTodoStore()
        _ = try store.importTodos([
            ImportedTodo(uid: uidA, title: "done long ago", isDone: true, doneAt: time(500)),
            ImportedTodo(uid: uidB, title: "done, no date", createdAt: time(100), updatedAt: time(700), isDone: true),
        ])
        let first = try store.todo(id: 1)
        XCTAssertEqual(first.createdAt, time(500), "not after its done time")
        XCTAssertEqual(first.doneAt, time(500))
        XCTAssertEqual(first.updatedAt, time(500))
        let second = try store.todo(id: 2)
        XCTAssertEqual(second.doneAt, time(700), "done as of its last change")
    }

    func testASecondImportAddsNothing() throws {
        let store = makeTodoStore()
        let todos = [ImportedTodo(uid: uidA, title: "a"), ImportedTodo(uid: uidB, title: "b")]
        XCTAssertEqual(try store.importTodos(todos).addedCount, 2)
        XCTAssertEqual(try store.importTodos(todos), ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 2))
        XCTAssertEqual(try store.counts().open, 2)
    }

    func testARepeatedUidWithinOneImportIsAddedOnce() throws {
        let outcome = try makeTodoStore().importTodos([ImportedTodo(uid: uidA, title: "a"),
                                                       ImportedTodo(uid: uidA, title: "a again")])
        XCTAssertEqual(outcome, ImportOutcome(addedIDs: [1], addedCount: 1, alreadyPresent: 1))
    }

    func testAToDoAddedByHandWithTheSameUidCountsAsPresent() throws {
        let store = makeTodoStore()
        _ = try store.add(NewTodo(title: "by hand"), uid: uidA)
        XCTAssertEqual(try store.importTodos([ImportedTodo(uid: uidA, title: "imported")]).alreadyPresent, 1)
        XCTAssertEqual(try store.todo(id: 1).title, "by hand")
    }

    func testDryRunCountsAndWritesNothing() throws {
        let store = makeTodoStore()
        _ = try store.importTodos([ImportedTodo(uid: uidA, title: "a")])
        let outcome = try store.importTodos([ImportedTodo(uid: uidA, title: "a"), ImportedTodo(uid: uidB, title: "b")],
                                            dryRun: true)
        XCTAssertEqual(outcome, ImportOutcome(addedIDs: [], addedCount: 1, alreadyPresent: 1))
        XCTAssertEqual(try store.counts().open, 1)
    }

    func testABadItemImportsNothing() throws {
        let store = makeTodoStore()
        let error = memoError {
            _ = try store.importTodos([ImportedTodo(uid: uidA, title: "fine"), ImportedTodo(uid: uidB, title: "  ")])
        }
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertEqual(try store.counts().open, 0)
        // A failure inside the transaction (a uid that is not a UUID breaks no
        // constraint, so use a tag the store refuses) rolls back the earlier rows.
        XCTAssertNotNil(memoError {
            _ = try store.importTodos([ImportedTodo(uid: uidA, title: "fine"),
                                       ImportedTodo(uid: uidB, title: "bad", tags: ["two words"])])
        })
        XCTAssertEqual(try store.counts().open, 0)
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM todo_tags") { $0.int(0) }, 0)
    }

    // MARK: Memos

    func testImportedMemosKeepTextTitleAndTime() throws {
        let store = makeMemoStore()
        let text = "# 회의록\r\n\nline\0NUL"
        let outcome = try store.importMemos([ImportedMemo(uid: uidA, title: "회의록", text: text, tags: ["notes"],
                                                          createdAt: time(1234.5))])
        XCTAssertEqual(outcome.addedIDs, [1])
        let memo = try store.memo(id: 1)
        XCTAssertEqual(memo, Memo(id: 1, uid: uidA, title: "회의록", text: text, tags: ["notes"], isPinned: false,
                                  createdAt: time(1234.5), updatedAt: time(1234.5)))
        XCTAssertEqual(try store.importMemos([ImportedMemo(uid: uidB, title: nil, text: "plain")]).addedIDs, [2])
        XCTAssertEqual(try store.memo(id: 2).createdAt, clock.now())
        assertSearchIndexesIntact()
    }

    func testMemosAreNotAddedTwiceAndDryRunWritesNothing() throws {
        let store = makeMemoStore()
        let memos = [ImportedMemo(uid: uidA, title: nil, text: "a"), ImportedMemo(uid: uidA, title: nil, text: "a")]
        XCTAssertEqual(try store.importMemos(memos, dryRun: true), ImportOutcome(addedIDs: [], addedCount: 1, alreadyPresent: 1))
        XCTAssertEqual(try store.count(), 0)
        XCTAssertEqual(try store.importMemos(memos), ImportOutcome(addedIDs: [1], addedCount: 1, alreadyPresent: 1))
        XCTAssertEqual(try store.importMemos(memos), ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 2))
        XCTAssertEqual(try store.count(), 1)
    }

    func testAnEmptyMemoImportsNothing() throws {
        let store = makeMemoStore()
        XCTAssertEqual(memoError {
            _ = try store.importMemos([ImportedMemo(uid: uidA, title: nil, text: "ok"),
                                       ImportedMemo(uid: uidB, title: nil, text: " \n")])
        }?.kind, .badInput)
        XCTAssertEqual(try store.count(), 0)
    }
}

extension NotesImportStoreTests {
    func testAUidThatIsNotAUUIDIsRefused() throws {
        XCTAssertEqual(memoError { _ = try makeTodoStore().importTodos([ImportedTodo(uid: "abc", title: "a")]) }?.kind,
                       .badInput)
        XCTAssertEqual(memoError {
            _ = try makeMemoStore().importMemos([ImportedMemo(uid: "ABC", title: nil, text: "a")])
        }?.kind, .badInput)
        XCTAssertEqual(try makeTodoStore().counts().open, 0)
        XCTAssertEqual(try makeMemoStore().count(), 0)
    }
}
