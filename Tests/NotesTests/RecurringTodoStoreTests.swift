import MemoCore
@testable import Notes
import SQLite
import XCTest

/// Finishing a recurring to-do adds its next occurrence; the rule is kept,
/// changed and checked by the store. "Now" is Sunday 2026-11-29 22:00 in Seoul.
final class RecurringTodoStoreTests: NotesTestCase {
    private func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: day)
    }

    private func due(_ date: CivilDate) -> Due { Due.endOf(date, in: seoul) }

    func testFinishingARecurringToDoAddsTheNextOccurrenceWithTheSameFields() throws {
        let store = makeTodoStore()
        let weekly = RepeatRule(every: 1, unit: .week)
        let todo = try store.add(NewTodo(title: "water plants", note: "the fern too", priority: .high,
                                         tags: ["home"], due: due(day(2026, 12, 5)), repeatRule: weekly))
        let (done, next) = try store.finish(ids: [todo.id])
        XCTAssertTrue(try XCTUnwrap(done.first).isDone)
        let occurrence = try XCTUnwrap(next.first)
        XCTAssertNotEqual(occurrence.id, todo.id)
        XCTAssertNotEqual(occurrence.uid, todo.uid)
        XCTAssertEqual(occurrence.title, "water plants")
        XCTAssertEqual(occurrence.note, "the fern too")
        XCTAssertEqual(occurrence.priority, .high)
        XCTAssertEqual(occurrence.tags, ["home"])
        XCTAssertEqual(occurrence.repeatRule, weekly)
        XCTAssertEqual(occurrence.due, due(day(2026, 12, 12)))
        XCTAssertFalse(occurrence.isDone)
        XCTAssertEqual(try store.todo(id: occurrence.id), occurrence, "as stored")
        // Done again: already done, so no second occurrence.
        XCTAssertEqual(try store.finish(ids: [todo.id]).next, [])
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all)).count, 2)
    }

    func testMissedDatesAreSkippedToTheFirstAfterTodayAndATimeOfDayIsKept() throws {
        let store = makeTodoStore()
        // Due Monday 2026-11-16 08:30 Seoul, two weeks ago, daily.
        let morning = Due(instant: seoul.instant(of: CivilDateTime(date: day(2026, 11, 16), hour: 8, minute: 30)),
                          hasTime: true)
        let todo = try store.add(NewTodo(title: "stretch", due: morning, repeatRule: RepeatRule(every: 1, unit: .day)))
        let next = try XCTUnwrap(store.finish(ids: [todo.id]).next.first)
        XCTAssertEqual(next.due, Due(instant: seoul.instant(of: CivilDateTime(date: day(2026, 11, 30), hour: 8, minute: 30)),
                                     hasTime: true))
    }

    func testTheNextOccurrencesReminderKeepsItsDistanceFromTheDueTime() throws {
        let store = makeTodoStore()
        let evening = Due(instant: seoul.instant(of: CivilDateTime(date: day(2026, 12, 5), hour: 18, minute: 0)),
                          hasTime: true)
        let dayBefore = seoul.instant(of: CivilDateTime(date: day(2026, 12, 4), hour: 9, minute: 0))
        let todo = try store.add(NewTodo(title: "book club", due: evening, repeatRule: RepeatRule(every: 1, unit: .week),
                                         remindAt: dayBefore))
        let next = try XCTUnwrap(store.finish(ids: [todo.id]).next.first)
        XCTAssertEqual(next.remindAt, seoul.instant(of: CivilDateTime(date: day(2026, 12, 11), hour: 9, minute: 0)))
        XCTAssertEqual(try store.todo(id: next.id).remindAt, next.remindAt, "as stored")
        let plain = try store.add(NewTodo(title: "no reminder", due: evening, repeatRule: RepeatRule(every: 1, unit: .day)))
        XCTAssertNil(try XCTUnwrap(store.finish(ids: [plain.id]).next.first).remindAt)
    }

    func testCountingFromTheDayItIsDone() throws {
        let store = makeTodoStore()
        let rule = RepeatRule(every: 2, unit: .week, from: .done)
        let todo = try store.add(NewTodo(title: "haircut", due: due(day(2026, 12, 20)), repeatRule: rule))
        let next = try XCTUnwrap(store.finish(ids: [todo.id]).next.first)
        XCTAssertEqual(next.due?.date(in: seoul), day(2026, 12, 13), "two weeks from Sunday 2026-11-29")
        XCTAssertEqual(next.repeatRule?.from, .done)
    }

    func testAMonthlyRuleKeepsTheDayItStartedOn() throws {
        let store = makeTodoStore()
        clock.current = seoul.instant(of: CivilDateTime(date: day(2027, 1, 31), hour: 9))
        let rent = try store.add(NewTodo(title: "rent", due: due(day(2027, 1, 31)),
                                         repeatRule: RepeatRule(every: 1, unit: .month)))
        XCTAssertEqual(rent.repeatRule?.anchorDay, 31)
        let february = try XCTUnwrap(store.finish(ids: [rent.id]).next.first)
        XCTAssertEqual(february.due?.date(in: seoul), day(2027, 2, 28))
        clock.current = seoul.instant(of: CivilDateTime(date: day(2027, 2, 28), hour: 9))
        let march = try XCTUnwrap(store.finish(ids: [february.id]).next.first)
        XCTAssertEqual(march.due?.date(in: seoul), day(2027, 3, 31))
    }

    func testARepeatNeedsADueDate() throws {
        let store = makeTodoStore()
        let error = memoError { _ = try store.add(NewTodo(title: "x", repeatRule: RepeatRule(every: 1, unit: .day))) }
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertEqual(try store.todos(matching: TodoQuery(status: .all)), [])
        let todo = try store.add(NewTodo(title: "x", due: due(day(2026, 12, 1)), repeatRule: RepeatRule(every: 1, unit: .day)))
        XCTAssertEqual(memoError { _ = try store.edit(id: todo.id, TodoChanges(due: .remove)) }?.kind, .usage)
        XCTAssertNotNil(try store.todo(id: todo.id).due, "a refused edit changes nothing")
        let invalid = RepeatRule(every: 1000, unit: .day)
        XCTAssertEqual(memoError { _ = try store.add(NewTodo(title: "y", due: due(day(2026, 12, 1)), repeatRule: invalid)) }?.kind,
                       .usage)
    }

    func testEditingSetsChangesAndRemovesTheRule() throws {
        let store = makeTodoStore()
        let todo = try store.add(NewTodo(title: "report", due: due(day(2026, 12, 31))))
        XCTAssertNil(todo.repeatRule)
        var changes = TodoChanges()
        changes.repeatRule = .set(RepeatRule(every: 1, unit: .month))
        XCTAssertEqual(try store.edit(id: todo.id, changes).repeatRule, RepeatRule(every: 1, unit: .month, anchorDay: 31))
        var from = TodoChanges()
        from.repeatFrom = .done
        XCTAssertEqual(try store.edit(id: todo.id, from).repeatRule?.from, .done)
        // A new due date moves the month day with it.
        XCTAssertEqual(try store.edit(id: todo.id, TodoChanges(due: .set(due(day(2027, 1, 15))))).repeatRule?.anchorDay, 15)
        var removal = TodoChanges()
        removal.repeatRule = .remove
        XCTAssertNil(try store.edit(id: todo.id, removal).repeatRule)
        XCTAssertEqual(memoError { _ = try store.edit(id: todo.id, from) }?.kind, .usage, "nothing to count from")
        // A one-off finishes without an occurrence.
        XCTAssertEqual(try store.finish(ids: [todo.id]).next, [])
    }

    func testARuleRowNoStoreWroteReadsAsNoRule() throws {
        let store = makeTodoStore()
        let todo = try store.add(NewTodo(title: "x", due: due(day(2026, 12, 1)), repeatRule: RepeatRule(every: 1, unit: .weekday)))
        // weekday every 2 passes the column CHECKs but is no rule.
        try connection.execute("UPDATE todos SET repeat_every = 2 WHERE id = ?", todo.id)
        XCTAssertNil(try store.todo(id: todo.id).repeatRule)
        XCTAssertThrowsError(try connection.execute("UPDATE todos SET repeat_unit = 'hour' WHERE id = ?", todo.id))
    }
}
