import Foundation
import MemoCore
@testable import MemoKit
import Notes
import TestSupport
import XCTest

/// The watcher's look over a real database with an injected clock: to-dos'
/// due moments and reminder times told once, across watchers, missed ones
/// marked, done ones silent.
final class ReminderWatchTests: XCTestCase {
    /// A wall clock the test moves by hand.
    private final class ManualClock: WallClock, @unchecked Sendable {
        private let lock = NSLock()
        private var current: Timestamp
        init(_ start: Timestamp) { current = start }
        func now() -> Timestamp { lock.withLock { current } }
        func advance(_ seconds: Double) { lock.withLock { current = current.adding(seconds: seconds) } }
    }

    private let folder = TemporaryDirectory()
    private let clock = ManualClock(Timestamp(secondsSince1970: 1_800_000_000))
    private var workspace: Workspace!
    private var told: [DueReminder] = []

    override func setUpWithError() throws {
        workspace = Workspace(home: DataHome(path: folder.appending("home")), clock: clock)
        _ = try workspace.database()
    }

    private func watch(in workspace: Workspace? = nil) -> ReminderWatch {
        ReminderWatch(workspace: workspace ?? self.workspace) { [unowned self] in told.append($0) }
    }

    func testAReminderTimeIsToldWhenItComesAndOnlyOnce() throws {
        let remindAt = clock.now().adding(seconds: 120)
        let todo = try workspace.todoStore().add(NewTodo(title: "call", remindAt: remindAt))
        let watch = watch()
        XCTAssertEqual(try watch.look(), 120.005, accuracy: 0.001)
        XCTAssertEqual(told, [])
        clock.advance(120)
        try watch.look()
        XCTAssertEqual(told.map(\.event.kind), [.todoRemind])
        XCTAssertEqual(told.first?.event.itemID, todo.id)
        XCTAssertEqual(told.first?.isMissed, false)
        clock.advance(1)
        XCTAssertEqual(try watch.look(), ReminderSchedule.longestSleep)
        XCTAssertEqual(told.count, 1, "told once")
    }

    func testAnotherWatcherLaterDoesNotTellItAgain() throws {
        _ = try workspace.todoStore().add(NewTodo(title: "call", remindAt: clock.now().adding(seconds: -10)))
        try watch().look()
        XCTAssertEqual(told.count, 1)
        let restarted = Workspace(home: workspace.home, clock: clock)
        clock.advance(3600)
        try watch(in: restarted).look()
        XCTAssertEqual(told.count, 1, "a restarted watcher remembers what was told")
    }

    func testAnEventFromBeforeTheStartIsMissedAndADateOnlyDueFallsDueInTheMorning() throws {
        let calendar = workspace.calendar
        let today = calendar.date(at: clock.now())
        let due = Due.endOf(today, in: calendar)
        let morning = due.reminderMoment(in: calendar)
        XCTAssertEqual(calendar.civil(at: morning).hour, Due.dateOnlyReminderHour)
        XCTAssertEqual(calendar.civil(at: morning).minute, 0)
        _ = try workspace.todoStore().add(NewTodo(title: "report", due: due))
        clock.advance(morning.secondsSince1970 - clock.now().secondsSince1970 + 300)
        try watch().look()
        XCTAssertEqual(told, [DueReminder(event: told[0].event, isMissed: true)])
        XCTAssertEqual(told[0].event.kind, .todoDue)
        XCTAssertEqual(told[0].event.at, morning)
    }

    func testADoneToDoAndOneOlderThanTheBoundAreNotTold() throws {
        let store = try workspace.todoStore()
        let done = try store.add(NewTodo(title: "done", remindAt: clock.now().adding(seconds: -5)))
        _ = try store.markDone(ids: [done.id])
        _ = try store.add(NewTodo(title: "old", remindAt: clock.now().adding(seconds: -ReminderSchedule.missedBound - 5)))
        try watch().look()
        XCTAssertEqual(told, [])
    }

    func testAReminderDaysAwayIsReadOnlyWhenItIsNear() throws {
        let remindAt = clock.now().adding(seconds: 3 * 86400)
        _ = try workspace.todoStore().add(NewTodo(title: "later", remindAt: remindAt))
        let ledger = ReminderLedger(workspace: workspace)
        XCTAssertEqual(try ledger.candidates(at: clock.now()), [], "beyond the window of one look")
        let watch = watch()
        XCTAssertEqual(try watch.look(), ReminderSchedule.longestSleep)
        clock.advance(3 * 86400 - 30)
        XCTAssertEqual(try watch.look(), 30.005, accuracy: 0.001)
        clock.advance(30)
        try watch.look()
        XCTAssertEqual(told.map(\.event.at), [remindAt])
    }

    func testMovingTheReminderTimeTellsItAgain() throws {
        let store = try workspace.todoStore()
        let todo = try store.add(NewTodo(title: "call", remindAt: clock.now()))
        let watch = watch()
        try watch.look()
        _ = try store.edit(id: todo.id, TodoChanges(remind: .set(clock.now().adding(seconds: 60))))
        clock.advance(60)
        try watch.look()
        XCTAssertEqual(told.map(\.event.kind), [.todoRemind, .todoRemind])
    }
}
