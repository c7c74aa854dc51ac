import MemoCore
@testable import Notes
import SQLite
import XCTest

final class TodoStoreTests: NotesTestCase {
    func testAddReturnsTheStoredToDoWithANewID() throws {
        let store = makeTodoStore()
        let due = try DueDateParser(now: clock.now(), calendar: seoul).parse("tomorrow")
        let added = try store.add(NewTodo(title: "우유 사기 buy milk", note: "2 L", priority: .high,
                                          tags: ["#집", "shop", "SHOP"], due: due))
        XCTAssertEqual(added.id, 1)
        XCTAssertEqual(added.tags, ["집", "shop"])
        XCTAssertEqual(added.createdAt, clock.now())
        XCTAssertFalse(added.isDone)
        XCTAssertEqual(try store.todo(id: added.id), added)
        XCTAssertEqual(try store.add(NewTodo(title: "second")).id, 2)
        assertSearchIndexesIntact()
    }

    func testTitlesAndNotesComeBackByteForByte() throws {
        let store = makeTodoStore()
        let title = "회의 준비 🎉 \"quoted\" 'single' ; DROP TABLE todos; -- \\ %_"
        let note = "line one\nline two\r\n\ttabbed\0after NUL 대한민국"
        let added = try store.add(NewTodo(title: title, note: note))
        let read = try store.todo(id: added.id)
        XCTAssertEqual(Array(read.title.utf8), Array(title.utf8))
        XCTAssertEqual(read.note.map { Array($0.utf8) }, Array(note.utf8))
    }

    func testABlankTitleIsAUsageErrorAndAddsNothing() throws {
        let store = makeTodoStore()
        for title in ["", "   ", "\n\t"] {
            XCTAssertEqual(memoError { _ = try store.add(NewTodo(title: title)) }?.kind, .usage)
        }
        XCTAssertEqual(memoError { _ = try store.add(NewTodo(title: "ok", tags: ["bad tag"])) }?.kind, .usage)
        XCTAssertEqual(try store.counts().open, 0)
    }

    func testAnEmptyNoteIsNoNote() throws {
        let store = makeTodoStore()
        XCTAssertNil(try store.add(NewTodo(title: "a", note: "")).note)
    }

    func testShowingAnUnknownIDIsNotFound() {
        let store = makeTodoStore()
        let error = memoError { _ = try store.todo(id: 42) }
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.message.en, "no to-do with id 42")
        XCTAssertEqual(error?.message.ko, "id 42인 할 일이 없습니다")
    }

    func testMarkDoneAndReopenChangeEveryIDGiven() throws {
        let store = makeTodoStore()
        let ids = try (1...3).map { try store.add(NewTodo(title: "t\($0)")).id }
        clock.advance(60)
        let done = try store.markDone(ids: [ids[0], ids[2], ids[0]])
        XCTAssertEqual(done.map(\.id), [ids[0], ids[2]], "repeats act once")
        XCTAssertEqual(done.map(\.doneAt), [clock.now(), clock.now()])
        XCTAssertFalse(try store.todo(id: ids[1]).isDone)

        clock.advance(60)
        let again = try store.markDone(ids: [ids[0]])
        XCTAssertEqual(again[0].doneAt, clock.now().adding(seconds: -60), "done twice keeps the first done time")

        let reopened = try store.reopen(ids: [ids[0], ids[1]])
        XCTAssertEqual(reopened.map(\.isDone), [false, false])
        XCTAssertTrue(try store.todo(id: ids[2]).isDone)
    }

    func testOneUnknownIDChangesNothingAndIsNamed() throws {
        let store = makeTodoStore()
        let a = try store.add(NewTodo(title: "a")).id
        let b = try store.add(NewTodo(title: "b")).id
        let error = memoError { _ = try store.markDone(ids: [a, 99, b, 100]) }
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.message.en, "no to-dos with ids 99, 100")
        XCTAssertFalse(try store.todo(id: a).isDone)
        XCTAssertFalse(try store.todo(id: b).isDone)

        _ = try store.markDone(ids: [a])
        XCTAssertEqual(memoError { _ = try store.reopen(ids: [a, 7]) }?.kind, .notFound)
        XCTAssertTrue(try store.todo(id: a).isDone)

        XCTAssertEqual(memoError { _ = try store.remove(ids: [b, 7]) }?.kind, .notFound)
        XCTAssertNoThrow(try store.todo(id: b))
        XCTAssertEqual(memoError { _ = try store.edit(id: 7, TodoChanges(title: "x")) }?.kind, .notFound)
    }

    func testRemovedIDsAreNeverGivenAgain() throws {
        let store = makeTodoStore()
        let first = try store.add(NewTodo(title: "a")).id
        let second = try store.add(NewTodo(title: "b")).id
        let removed = try store.remove(ids: [second, first])
        XCTAssertEqual(removed.map(\.title), ["b", "a"])
        XCTAssertEqual(memoError { _ = try store.todo(id: second) }?.kind, .notFound)
        XCTAssertEqual(try store.add(NewTodo(title: "c")).id, 3)
        assertSearchIndexesIntact()
    }

    func testRemovingAToDoRemovesItsTags() throws {
        let store = makeTodoStore()
        let id = try store.add(NewTodo(title: "a", tags: ["x", "y"])).id
        _ = try store.remove(ids: [id])
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM todo_tags") { $0.int(0) }, 0)
    }

    func testClearRemovesOnlyDoneToDosAndCountsThem() throws {
        let store = makeTodoStore()
        let ids = try (1...5).map { try store.add(NewTodo(title: "t\($0)")).id }
        _ = try store.markDone(ids: [ids[1], ids[3]])
        XCTAssertEqual(try store.clearDone().map(\.id), [ids[1], ids[3]])
        XCTAssertEqual(try store.clearDone().count, 0)
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all)).map(\.id), [ids[0], ids[2], ids[4]])
        assertSearchIndexesIntact()
    }

    func testEditChangesOnlyWhatItIsTold() throws {
        let store = makeTodoStore()
        let parser = DueDateParser(now: clock.now(), calendar: seoul)
        let original = try store.add(NewTodo(title: "old", note: "keep", priority: .low, tags: ["a", "b"],
                                             due: try parser.parse("today")))
        clock.advance(5)
        let newDue = try parser.parse("2026-12-24 18:00")
        let edited = try store.edit(id: original.id, TodoChanges(title: "new", priority: .set(.high),
                                                                 due: .set(newDue), addedTags: ["c", "A"],
                                                                 removedTags: ["#b"]))
        XCTAssertEqual(edited.title, "new")
        XCTAssertEqual(edited.note, "keep")
        XCTAssertEqual(edited.priority, .high)
        XCTAssertEqual(edited.due, newDue)
        XCTAssertEqual(edited.tags, ["a", "c"])
        XCTAssertEqual(edited.createdAt, original.createdAt)
        XCTAssertEqual(edited.updatedAt, clock.now())
        XCTAssertEqual(try store.todo(id: original.id), edited)

        let cleared = try store.edit(id: original.id, TodoChanges(note: .remove, priority: .remove, due: .remove))
        XCTAssertNil(cleared.note)
        XCTAssertNil(cleared.priority)
        XCTAssertNil(cleared.due)
        XCTAssertEqual(try store.todos(matching: TodoQuery(tags: try TagFilter(parsing: ["c"]))).map(\.id), [original.id])
        XCTAssertEqual(try store.todos(matching: TodoQuery(tags: try TagFilter(parsing: ["b"]))).map(\.id), [])
        assertSearchIndexesIntact()
    }

    func testABadEditChangesNothing() throws {
        let store = makeTodoStore()
        let original = try store.add(NewTodo(title: "keep me"))
        XCTAssertEqual(memoError { _ = try store.edit(id: original.id, TodoChanges(title: " ")) }?.kind, .usage)
        XCTAssertEqual(memoError { _ = try store.edit(id: original.id, TodoChanges(addedTags: ["a b"])) }?.kind, .usage)
        XCTAssertEqual(try store.todo(id: original.id), original)
    }

    func testTodoChangesKnowWhenTheyAreEmpty() {
        XCTAssertTrue(TodoChanges().isEmpty)
        XCTAssertFalse(TodoChanges(note: .remove).isEmpty)
        XCTAssertFalse(TodoChanges(removedTags: ["x"]).isEmpty)
        XCTAssertFalse(TodoChanges(title: "t").isEmpty)
    }

    func testOverdueAndDueTodayFollowTheClockAndTheCalendar() throws {
        let parser = DueDateParser(now: clock.now(), calendar: seoul)
        let dueToday = Todo(id: 1, title: "t", due: try parser.parse("today"), createdAt: clock.now(),
                            updatedAt: clock.now())
        XCTAssertFalse(dueToday.isOverdue(at: clock.now()))
        XCTAssertTrue(dueToday.isDueToday(at: clock.now(), in: seoul))
        // Seoul midnight passes two hours later.
        let later = clock.now().adding(seconds: 2 * 3600)
        XCTAssertTrue(dueToday.isOverdue(at: later))
        XCTAssertFalse(dueToday.isDueToday(at: later, in: seoul))
        var done = dueToday
        done.doneAt = clock.now()
        XCTAssertFalse(done.isOverdue(at: later), "a done to-do is never overdue")
    }

    func testPriorityParsingAcceptsWordsInBothLanguages() throws {
        XCTAssertEqual(try Priority(parsing: "HIGH"), .high)
        XCTAssertEqual(try Priority(parsing: "보통"), .medium)
        XCTAssertEqual(try Priority(parsing: "l"), .low)
        XCTAssertThrowsError(try Priority(parsing: "urgent")) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .usage)
        }
    }

    func testAddsFromSeveralConnectionsAllLand() throws {
        let other = try openDatabase()
        let mine = makeTodoStore()
        let theirs = TodoStore(connection: other, clock: clock, calendar: seoul)
        for index in 0..<50 {
            _ = try (index.isMultiple(of: 2) ? mine : theirs).add(NewTodo(title: "t\(index)"))
        }
        XCTAssertEqual(try mine.todos(matching: TodoQuery(sort: .created)).map(\.title), (0..<50).map { "t\($0)" })
    }
}
