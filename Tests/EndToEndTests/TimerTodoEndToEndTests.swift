import Foundation
import TestSupport
import XCTest

/// Timers tied to to-dos (`timer start --todo`, `todo show`'s time spent),
/// actions without an id, and finished timers kept on the main screen until
/// seen, on the built binary.
final class TimerTodoEndToEndTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var memoapp: Memoapp!

    override func setUp() {
        memoapp = Memoapp(home: folder.appending("home"))
        memoapp.onboard()
    }

    func testATimerStartedAgainstAToDoAddsToItsTimeSpent() {
        XCTAssertEqual(memoapp.run("todo", "add", "write the report").status, 0)
        let missing = memoapp.run("timer", "start", "--todo", "99", "--json")
        XCTAssertEqual(missing.status, 4, missing.stderr)
        XCTAssertEqual(memoapp.run("timer", "list", "--all", "--json").array().count, 0, "nothing was started")
        XCTAssertEqual(memoapp.run("timer", "start", "--todo", "0").status, 64)
        let started = memoapp.run("timer", "start", "--todo", "1", "--json").object()
        XCTAssertEqual(started["todo_id"] as? Int, 1)
        let stopped = memoapp.run("timer", "stop", "--json").object()
        XCTAssertEqual(stopped["state"] as? String, "stopped", "the only running stopwatch, without an id")
        let elapsed = stopped["elapsed"] as? Double ?? -1
        let shown = memoapp.run("todo", "show", "1", "--json").object()
        XCTAssertEqual(shown["time_spent_seconds"] as? Double ?? -1, elapsed, accuracy: 0.0015)
        XCTAssertTrue(memoapp.run("todo", "show", "1").stdout.contains(" (1 timer)\n"))
        XCTAssertNil(memoapp.run("todo", "list", "--json").array().first?["time_spent_seconds"], "lists leave it out")

        XCTAssertEqual(memoapp.run("todo", "rm", "1").status, 0)
        XCTAssertTrue(memoapp.run("timer", "status", "1", "--json").object()["todo_id"] is NSNull,
                      "a removed to-do leaves its timer with none")
        XCTAssertEqual(memoapp.run("undo").status, 0)
        XCTAssertEqual(memoapp.run("timer", "status", "1", "--json").object()["todo_id"] as? Int, 1,
                       "undoing the removal ties the timer again")
    }

    func testExportAndImportKeepTheTieAndTheSeenMark() {
        XCTAssertEqual(memoapp.run("todo", "add", "first").status, 0)
        XCTAssertEqual(memoapp.run("todo", "add", "second").status, 0)
        XCTAssertEqual(memoapp.run("timer", "start", "--todo", "2").status, 0)
        XCTAssertEqual(memoapp.run("timer", "stop", "1").status, 0)
        let seen = memoapp.run("timer", "status", "1", "--json").object()["seen_at"] as? String
        XCTAssertNotNil(seen, "status shows it ended: seen")
        let file = folder.appending("export.json")
        XCTAssertEqual(memoapp.run("export", "-o", file).status, 0)

        // Another home whose to-do ids differ: the tie follows the to-do's uid.
        let other = Memoapp(home: folder.appending("other"))
        other.onboard()
        XCTAssertEqual(other.run("todo", "add", "already here").status, 0)
        XCTAssertEqual(other.run("import", file).status, 0)
        let timer = other.run("timer", "list", "--all", "--json").array().first ?? [:]
        let second = other.run("todo", "list", "--json").array().first { $0["title"] as? String == "second" }
        XCTAssertNotNil(second?["id"] as? Int)
        XCTAssertEqual(timer["todo_id"] as? Int, second?["id"] as? Int)
        XCTAssertEqual(timer["seen_at"] as? String, seen)
    }

    func testWithoutAnIDAnActionTakesTheOnlyTimerItAppliesTo() {
        let none = memoapp.run("timer", "pause")
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("no timer to pause"), none.stderr)
        XCTAssertEqual(memoapp.run("timer", "start", "25m").status, 0)
        XCTAssertEqual(memoapp.run("timer", "pause", "--json").object()["state"] as? String, "paused")
        XCTAssertEqual(memoapp.run("timer", "resume", "--json").object()["state"] as? String, "running")
        XCTAssertEqual(memoapp.run("timer", "start").status, 0)
        let several = memoapp.run("timer", "pause")
        XCTAssertEqual(several.status, 64)
        XCTAssertTrue(several.stderr.contains("1 (countdown, running), 2 (stopwatch, running)"), several.stderr)
        XCTAssertEqual(memoapp.run("timer", "lap", "--json").object()["id"] as? Int, 2, "only a stopwatch takes a lap")
        XCTAssertEqual(memoapp.run("timer", "cancel").status, 64, "cancelling names its timer")
        XCTAssertEqual(memoapp.run("timer", "status", "1", "--json").object()["state"] as? String, "running")
    }

    /// The main screen's timers, read without marking anything seen.
    private func mainScreenTimers() -> [[String: Any]] {
        memoapp.run("--json").object()["timers"] as? [[String: Any]] ?? []
    }

    func testAFinishedCountdownStaysOnTheMainScreenUntilSeen() {
        XCTAssertEqual(memoapp.run("timer", "start", "1s", "--label", "tea").status, 0)
        XCTAssertTrue(eventually { self.mainScreenTimers().first?["state"] as? String == "finished" })
        XCTAssertEqual(mainScreenTimers().count, 1, "looking at the main screen is not seeing it")
        XCTAssertTrue(memoapp.run([]).stdout.contains("tea"), "and in its text")
        let listed = memoapp.run("timer", "list", "--json").array()
        XCTAssertEqual(listed.first?["state"] as? String, "finished", "the list shows it once")
        XCTAssertEqual(mainScreenTimers().count, 0)
        XCTAssertEqual(memoapp.run("timer", "list", "--json").array().count, 0)

        XCTAssertEqual(memoapp.run("timer", "start", "1s").status, 0)
        XCTAssertTrue(eventually { self.mainScreenTimers().count == 1 && self.mainScreenTimers()[0]["state"] as? String == "finished" })
        XCTAssertEqual(memoapp.run("timer", "dismiss", "--all", "--json").object()["dismissed"] as? Int, 1)
        XCTAssertEqual(mainScreenTimers().count, 0)
        XCTAssertEqual(memoapp.run("timer", "dismiss").status, 64)
        XCTAssertEqual(memoapp.run("timer", "dismiss", "1", "--all").status, 64)
        XCTAssertEqual(memoapp.run("timer", "dismiss", "99").status, 4)
        XCTAssertEqual(memoapp.run("timer", "start", "25m").status, 0)
        XCTAssertEqual(memoapp.run("timer", "dismiss", "3").status, 5, "a running timer is not dismissed")
        XCTAssertEqual(memoapp.run("timer", "dismiss", "1").status, 0, "dismissing a seen one again is no error")
    }
}
