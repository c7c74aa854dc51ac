import Foundation
import MemoCore
import SQLite
import Timers
import XCTest

/// Timers tied to a to-do (time spent from their spans, at one reading) and
/// the seen mark of ended timers, on a clock the test moves.
final class TimerTodoAndSeenTests: XCTestCase {
    private var directory: URL!
    private let clock = ManualTimerClock()
    private var store: TimerStore!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
        store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
    }

    override func tearDownWithError() throws {
        store = nil
        try? FileManager.default.removeItem(at: directory)
    }

    func testTimeSpentSumsFinishedStoppedAndRunningTimersOfThatToDoOnly() throws {
        let countdown = try store.start(duration: 60, label: nil, todoID: 7).timer.id
        let stopwatch = try store.start(duration: nil, label: nil, todoID: 7).timer.id
        _ = try store.start(duration: nil, label: "other", todoID: 8)
        _ = try store.start(duration: nil, label: "none", todoID: nil)
        clock.advance(by: 90)  // the countdown finished at 60
        _ = try store.apply(.pause, toTimer: stopwatch)
        clock.advance(by: 1000)  // paused: not counted
        _ = try store.apply(.resume, toTimer: stopwatch)
        clock.advance(by: 10)
        let tracked = try store.timeSpent(onTodo: 7)
        XCTAssertEqual(tracked.timerCount, 2)
        XCTAssertEqual(tracked.spent.seconds, 60 + 100, accuracy: 1e-9)
        XCTAssertFalse(tracked.spent.isEstimated)
        XCTAssertEqual(try store.snapshot(ofTimer: countdown).timer.todoID, 7)
        XCTAssertEqual(try store.timeSpent(onTodo: 9).timerCount, 0)
    }

    func testAFinishedCountdownIsUnseenUntilMarkedAndActiveTimersAreNeverMarked() throws {
        let countdown = try store.start(duration: 5, label: nil).timer.id
        let running = try store.start(duration: nil, label: nil).timer.id
        XCTAssertEqual(try store.unseenFinished().map(\.timer.id), [])
        clock.advance(by: 6)
        XCTAssertEqual(try store.unseenFinished().map(\.timer.id), [countdown], "settled and found")
        XCTAssertEqual(try store.markSeen(ids: [countdown, running]), 1, "the running one is left alone")
        XCTAssertEqual(try store.markSeen(ids: [countdown]), 0, "seen once")
        XCTAssertEqual(try store.unseenFinished().map(\.timer.id), [])
        XCTAssertEqual(try store.snapshot(ofTimer: countdown).timer.seenAt, clock.reading().wall)
        XCTAssertNil(try store.snapshot(ofTimer: running).timer.seenAt)
        XCTAssertThrowsError(try TimerStore.checkDismissible(try store.snapshot(ofTimer: running)))
        XCTAssertNoThrow(try TimerStore.checkDismissible(try store.snapshot(ofTimer: countdown)))
    }

    func testTheMigrationMarksTimersThatAlreadyEndedSeen() throws {
        let connection = try Connection(path: directory.appendingPathComponent("old.db").path)
        var before = Migrator()
        before.register(Array(TimerStore.migrations.prefix(3)))
        try before.apply(to: connection)
        try connection.execute("""
            INSERT INTO timers (kind, state, created_at, ended_at, duration) VALUES ('countdown', 'finished', 0, 5, 5)
            """)
        try connection.execute("INSERT INTO timers (kind, state, created_at) VALUES ('stopwatch', 'paused', 0)")
        var after = Migrator()
        after.register(TimerStore.migrations)
        try after.apply(to: connection)
        let seen = try connection.query("SELECT seen_at FROM timers ORDER BY id") { $0.optionalDouble(0) }
        XCTAssertEqual(seen, [5, nil])
    }
}
