import Foundation
import TestSupport
import XCTest

/// `memoapp timer wait` through the binary, with short real countdowns.
final class TimerWaitTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var memoapp: Memoapp!

    override func setUp() {
        directory = TemporaryDirectory()
        memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
    }

    override func tearDown() {
        directory = nil
    }

    func testWaitReturnsAtTheEndAndPrintsOnlyThen() throws {
        let started = memoapp.timerJSON("timer", "start", "1s", "--label", "tea")
        let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        let result = wait.finish()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Timer 1 (tea) finished at "), result.stdout)
        XCTAssertEqual(result.stdout.filter { $0 == "\n" }.count, 1, "one line, no live redraw off a terminal")
        XCTAssertFalse(result.stdout.contains("\u{1B}") || result.stdout.contains("\u{7}"), result.stdout)
        let finished = memoapp.timerJSON("timer", "status", "1")
        XCTAssertEqual(finished["state"] as? String, "finished")
        let endsAt = try XCTUnwrap(timerTime(started["ends_at"]))
        let endedAt = try XCTUnwrap(timerTime(finished["ended_at"]))
        XCTAssertEqual(endedAt.timeIntervalSince(endsAt), 0, accuracy: 0.005, "finished when it said it would")
    }

    func testWaitWithoutAnIdWaitsForTheNewestRunningCountdownAndPrintsJSON() {
        _ = memoapp.run(["timer", "start", "1h"])
        _ = memoapp.run(["timer", "start"])  // a stopwatch, newer, is not waited for
        _ = memoapp.run(["timer", "start", "10m"])
        _ = memoapp.run(["timer", "pause", "3"])
        // Started last, just before the wait: it has to outlast one process
        // start, so it gets seconds of headroom, not a fraction of one.
        _ = memoapp.run(["timer", "start", "3s"])
        let result = memoapp.run(["timer", "wait", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timer = result.object()
        XCTAssertEqual(timer["id"] as? Int, 4)
        XCTAssertEqual(timer["state"] as? String, "finished")
        XCTAssertEqual(timer["remaining"] as? Double, 0)
    }

    /// The id is looked up once: a restore that gives it to another timer
    /// does not make the wait report (or wait for) that other timer.
    func testTheWaitFollowsItsTimerAcrossARestoreThatRenumbersIt() throws {
        let mine = memoapp.timerJSON("timer", "start", "1h", "--label", "mine")
        XCTAssertEqual(mine["id"] as? Int, 1)
        // A backup in which id 1 is another running countdown and mine is 2.
        var document = try XCTUnwrap(memoapp.run("export").json() as? [String: Any])
        var timer = try XCTUnwrap((document["timers"] as? [[String: Any]])?.first)
        var other = timer
        other["uid"] = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b"
        other["label"] = "other"
        timer["id"] = 2
        document["timers"] = [other, timer]
        let file = directory.appending("renumbered.json")
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))
        let staging = Memoapp(home: directory.appending("staging"))
        staging.onboard()
        XCTAssertEqual(staging.run("import", file).status, 0)
        XCTAssertEqual(staging.run("backup", directory.appending("backup")).status, 0)

        let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        wait.waitUntilSleeping()
        let restore = memoapp.run("restore", directory.appending("backup"), "--force")
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertEqual(memoapp.timerJSON("timer", "status", "1")["label"] as? String, "other")
        // Mine, now timer 2, is cancelled: a wait that followed the id would
        // go on waiting for the other one, an hour away.
        XCTAssertEqual(memoapp.run("timer", "cancel", "2").status, 0)
        let result = wait.finish(timeout: 20)
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertTrue(result.stderr.contains("Timer 2 (mine) was cancelled while waiting."), result.stderr)
    }

    func testWaitingWhenNoCountdownRunsExits4() {
        _ = memoapp.run(["timer", "start"])
        let result = memoapp.run(["timer", "wait"])
        XCTAssertEqual(result.status, 4)
        XCTAssertTrue(result.stderr.contains("No countdown is running."), result.stderr)
    }

    func testWaitingOnAPausedCountdownLastsUntilItIsResumedAndEnds() throws {
        let seconds = pausedCountdown()
        let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", "--json", String(seconds.id)])
        wait.waitUntilSleeping()
        // Longer than what was left: a wait that ignored the pause would have ended.
        Thread.sleep(forTimeInterval: seconds.duration + 0.5)
        XCTAssertTrue(wait.isRunning, "a paused countdown does not end")
        XCTAssertEqual(memoapp.timerJSON("timer", "status", String(seconds.id))["state"] as? String, "paused")
        _ = memoapp.run(["timer", "resume", String(seconds.id)])
        let result = wait.finish()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.object["state"] as? String, "finished")
        XCTAssertEqual(result.object["elapsed"] as? Double, seconds.duration)
    }

    func testAPauseDuringTheWaitPushesTheEndBack() throws {
        for duration in [2.0, 8.0, 30.0] {
            let id = memoapp.timerJSON("timer", "start", "\(Int(duration))s")["id"] as? Int ?? 0
            let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", String(id), "--json"])
            wait.waitUntilSleeping()
            guard memoapp.run(["timer", "pause", String(id)]).status == 0 else {
                // It ended before the pause arrived (a very slow machine): not
                // what this test is about; try again with more headroom.
                _ = wait.finish()
                continue
            }
            Thread.sleep(forTimeInterval: duration + 0.2)
            XCTAssertTrue(wait.isRunning, "the wait noticed the pause")
            _ = memoapp.run(["timer", "resume", String(id)])
            let result = wait.finish()
            XCTAssertEqual(result.status, 0, result.stderr)
            let created = try XCTUnwrap(timerTime(result.object["created_at"]))
            let ended = try XCTUnwrap(timerTime(result.object["ended_at"]))
            XCTAssertGreaterThan(ended.timeIntervalSince(created), 2 * duration,
                                 "it ended after the pause, not at start + \(duration) s")
            return
        }
        XCTFail("no countdown could be paused before it ended")
    }

    /// A countdown paused before it could end: the shortest of a few durations
    /// whose pause arrived in time (one second unless the machine is very slow).
    private func pausedCountdown(file: StaticString = #filePath, line: UInt = #line) -> (id: Int, duration: Double) {
        for duration in [1.0, 4.0, 16.0] {
            let id = memoapp.timerJSON("timer", "start", "\(Int(duration))s", file: file, line: line)["id"] as? Int ?? 0
            if memoapp.run(["timer", "pause", String(id)]).status == 0 { return (id, duration) }
        }
        XCTFail("no countdown could be paused before it ended", file: file, line: line)
        return (0, 0)
    }

    func testCancellingTheTimerEndsTheWaitWithExit5() throws {
        _ = memoapp.run(["timer", "start", "30s"])
        let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        wait.waitUntilSleeping()
        _ = memoapp.run(["timer", "cancel", "1"])
        let result = wait.finish()
        XCTAssertEqual(result.status, 5)
        XCTAssertEqual(result.stderr, "memoapp: Timer 1 was cancelled while waiting.\n")
        XCTAssertEqual(result.stdout, "")
        let again = memoapp.run(["timer", "wait", "1", "--json"])
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.errorCode, "invalid_state")
    }

    func testTwoWaitsOnOneTimerBothReturn() throws {
        _ = memoapp.run(["timer", "start", "1s"])
        let first = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        let second = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        XCTAssertEqual(first.finish().status, 0)
        XCTAssertEqual(second.finish().status, 0)
    }

    func testWaitingOnAnEndedCountdownReturnsAtOnceAndOnAStopwatchIsRefused() {
        _ = memoapp.run(["timer", "start", "0.1s"])
        Thread.sleep(forTimeInterval: 0.2)
        let done = memoapp.run(["timer", "wait", "1"])
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertTrue(done.stdout.contains("finished at"), done.stdout)
        _ = memoapp.run(["timer", "start"])
        let stopwatch = memoapp.run(["timer", "wait", "2"])
        XCTAssertEqual(stopwatch.status, 5)
        XCTAssertTrue(stopwatch.stderr.contains("stopwatch; it has no end"), stopwatch.stderr)
    }

    func testInterruptingTheWaitLeavesTheTimerRunning() throws {
        _ = memoapp.run(["timer", "start", "1m"])
        let wait = try BackgroundMemoapp(memoapp, ["timer", "wait", "1"])
        wait.waitUntilSleeping()
        kill(wait.process.processIdentifier, SIGINT)
        let result = wait.finish()
        XCTAssertEqual(result.status, 130)
        XCTAssertTrue(result.stderr.contains("stopped waiting; timer 1 keeps running"), result.stderr)
        XCTAssertEqual(memoapp.timerJSON("timer", "status", "1")["state"] as? String, "running")
    }
}
