import MemoCore
@testable import Notes
import XCTest

/// `TodoStore.todos(matching:)`: filters and orders.
final class TodoQueryTests: NotesTestCase {
    private var store: TodoStore!
    private var ids: [String: Int64] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = makeTodoStore()
        // Now: Sunday 2026-11-29 22:00 in Seoul.
        let parser = DueDateParser(now: clock.now(), calendar: seoul)
        let rows: [(String, String?, Priority?, [String])] = [
            ("yesterday", "2026-11-28", .low, ["work"]),
            ("this morning", "2026-11-29 09:00", nil, []),
            ("tonight", "2026-11-29 23:30", .medium, ["home"]),
            ("today", "today", .high, ["Work"]),
            ("saturday", "sat", nil, ["work"]),
            ("sunday week", "sun", .high, []),
            ("no date", nil, .medium, ["home"]),
            ("no date high", nil, .high, []),
        ]
        for (title, when, priority, tags) in rows {
            let due = try when.map(parser.parse)
            ids[title] = try store.add(NewTodo(title: title, priority: priority, tags: tags, due: due)).id
        }
        _ = try store.markDone(ids: [ids["no date high"]!])
    }

    private func titles(_ query: TodoQuery) throws -> [String] {
        try store.todos(matching: query).map(\.title)
    }

    func testTheDefaultListIsOpenToDosSoonestDueFirstUndatedLast() throws {
        XCTAssertEqual(try titles(TodoQuery()), ["yesterday", "this morning", "tonight", "today", "saturday",
                                                 "sunday week", "no date"])
    }

    func testStatusSelectsDoneOrAll() throws {
        XCTAssertEqual(try titles(TodoQuery(status: .done)), ["no date high"])
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all)).count, 8)
    }

    func testDueWindowsFollowTheLocalCalendar() throws {
        XCTAssertEqual(try titles(TodoQuery(due: .today)), ["this morning", "tonight", "today"])
        XCTAssertEqual(try titles(TodoQuery(due: .overdue)), ["yesterday", "this morning"])
        XCTAssertEqual(try titles(TodoQuery(due: .week)), ["this morning", "tonight", "today", "saturday"])
    }

    func testTagFilterIsExactAndIgnoresCase() throws {
        XCTAssertEqual(try titles(TodoQuery(tag: "work")), ["yesterday", "today", "saturday"])
        XCTAssertEqual(try titles(TodoQuery(tag: "#WORK")), ["yesterday", "today", "saturday"])
        XCTAssertEqual(try titles(TodoQuery(tag: "wor")), [])
        XCTAssertThrowsError(try titles(TodoQuery(tag: "two words")))
    }

    func testPriorityFilterAndSort() throws {
        XCTAssertEqual(try titles(TodoQuery(priority: .high)), ["today", "sunday week"])
        XCTAssertEqual(try titles(TodoQuery(sort: .priority)),
                       ["today", "sunday week", "tonight", "no date", "yesterday", "this morning", "saturday"])
    }

    func testCreatedSortIsTheOrderOfAdding() throws {
        XCTAssertEqual(try titles(TodoQuery(status: .all, sort: .created)),
                       ["yesterday", "this morning", "tonight", "today", "saturday", "sunday week", "no date",
                        "no date high"])
    }

    func testFiltersCombineAndLimitCuts() throws {
        XCTAssertEqual(try titles(TodoQuery(tag: "home", priority: .medium)), ["tonight", "no date"])
        XCTAssertEqual(try titles(TodoQuery(tag: "work", due: .overdue)), ["yesterday"])
        XCTAssertEqual(try titles(TodoQuery(limit: 2)), ["yesterday", "this morning"])
        XCTAssertEqual(try titles(TodoQuery(limit: 0)), [])
    }

    func testCountsSplitOpenAndDone() throws {
        let counts = try store.counts()
        XCTAssertEqual(counts.open, 7)
        XCTAssertEqual(counts.done, 1)
    }
}
