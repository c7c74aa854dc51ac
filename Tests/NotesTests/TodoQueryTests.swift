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
        // The week's window includes what is overdue: it is still to do.
        XCTAssertEqual(try titles(TodoQuery(due: .week)), ["yesterday", "this morning", "tonight", "today", "saturday"])
    }

    func testDueBeforeAndAfterBoundTheList() throws {
        let parser = DueDateParser(now: clock.now(), calendar: seoul)
        var before = TodoQuery()
        before.dueBefore = try parser.start(of: "today")
        XCTAssertEqual(try titles(before), ["yesterday"], "before today begins; undated ones never")
        before.dueBefore = try parser.start(of: "2026-11-29 12:00")
        XCTAssertEqual(try titles(before), ["yesterday", "this morning"])
        var after = TodoQuery()
        after.dueAfter = try parser.end(of: "today")
        XCTAssertEqual(try titles(after), ["saturday", "sunday week"], "after today ends")
        after.dueBefore = try parser.start(of: "sun")
        XCTAssertEqual(try titles(after), ["saturday"], "both: a window")
    }

    func testTagFilterIsExactAndIgnoresCase() throws {
        XCTAssertEqual(try titles(TodoQuery(tags: try TagFilter(parsing: ["work"]))), ["yesterday", "today", "saturday"])
        XCTAssertEqual(try titles(TodoQuery(tags: try TagFilter(parsing: ["#WORK"]))), ["yesterday", "today", "saturday"])
        XCTAssertEqual(try titles(TodoQuery(tags: try TagFilter(parsing: ["wor"]))), [])
        XCTAssertThrowsError(try titles(TodoQuery(tags: try TagFilter(parsing: ["two words"]))))
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

    func testNewestSortIsTheOrderOfAddingReversed() throws {
        XCTAssertEqual(try titles(TodoQuery(status: .all, sort: .newest)),
                       ["no date high", "no date", "sunday week", "saturday", "today", "tonight", "this morning",
                        "yesterday"])
        var page = TodoQuery(status: .all, sort: .newest, limit: 3)
        page.after = TodoPosition(dueAt: nil, priority: nil, id: try store.todos(matching: page)[2].id)
        XCTAssertEqual(try titles(page), ["saturday", "today", "tonight"], "the next page starts after the last seen")
    }

    func testFiltersCombineAndLimitCuts() throws {
        XCTAssertEqual(try titles(TodoQuery(tags: try TagFilter(parsing: ["home"]), priority: .medium)), ["tonight", "no date"])
        XCTAssertEqual(try titles(TodoQuery(tags: try TagFilter(parsing: ["work"]), due: .overdue)), ["yesterday"])
        XCTAssertEqual(try titles(TodoQuery(limit: 2)), ["yesterday", "this morning"])
        XCTAssertEqual(try titles(TodoQuery(limit: 0)), [])
    }

    func testCountsSplitOpenAndDone() throws {
        let counts = try store.counts()
        XCTAssertEqual(counts.open, 7)
        XCTAssertEqual(counts.done, 1)
    }

    func testForEachHandsOutWhatTheListHoldsInItsOrder() throws {
        for query in [TodoQuery(), TodoQuery(status: .all, sort: .priority), TodoQuery(tags: try TagFilter(parsing: ["work"]), limit: 1),
                      TodoQuery(status: .done), TodoQuery(due: .today, sort: .created)] {
            var streamed: [String] = []
            try store.forEachTodo(matching: query) { streamed.append($0.title) }
            XCTAssertEqual(streamed, try titles(query))
        }
    }

    func testTheLargestIDIsOfTheToDosTheQuerySelects() throws {
        XCTAssertEqual(try store.largestID(matching: TodoQuery()), ids["no date"])
        XCTAssertEqual(try store.largestID(matching: TodoQuery(status: .all)), ids["no date high"])
        XCTAssertEqual(try store.largestID(matching: TodoQuery(tags: try TagFilter(parsing: ["work"]), limit: 1)), ids["saturday"], "the limit aside")
        XCTAssertNil(try store.largestID(matching: TodoQuery(tags: try TagFilter(parsing: ["none-such"]))))
    }

    /// The plain `todo list` is read in order from an index, never sorted
    /// first: its first line comes at once however many to-dos are open.
    func testTheDefaultListComesFromAnIndexInItsOrder() throws {
        let plan = try connection.query("""
            EXPLAIN QUERY PLAN SELECT id FROM todos WHERE done_at IS NULL
            ORDER BY due_at IS NULL, due_at, priority IS NULL, priority DESC, id
            """) { $0.string(3) }
        XCTAssertEqual(plan, ["SCAN todos USING INDEX todos_open_in_due_order"])
        // The query the store runs is that one, term for term.
        XCTAssertEqual(try titles(TodoQuery()), try connection.query("""
            SELECT title FROM todos INDEXED BY todos_open_in_due_order WHERE done_at IS NULL
            ORDER BY due_at IS NULL, due_at, priority IS NULL, priority DESC, id
            """) { $0.string(0) })
    }
}
