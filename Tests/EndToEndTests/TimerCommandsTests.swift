import Foundation
import TestSupport
import XCTest

/// `memoapp timer start|list|status|pause|resume|cancel|lap|stop` through the binary.
final class TimerCommandsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var memoapp: Memoapp!

    override func setUp() {
        directory = TemporaryDirectory()
        memoapp = Memoapp(home: directory.appending("home"))
    }

    override func tearDown() {
        directory = nil
    }

    func testTimerCommandsWaitForTheOnboarding() {
        for args in [["timer", "start", "5m"], ["timer", "list"], ["timer", "pause", "1"], ["timer", "wait"]] {
            let result = memoapp.run(args)
            XCTAssertEqual(result.status, 3, "\(args)")
            XCTAssertTrue(result.stderr.contains("memoapp onboard"), result.stderr)
        }
        memoapp.onboard()
        XCTAssertEqual(memoapp.run(["timer", "list", "--json"]).stdout, "[]\n", "the refused start made nothing")
    }

    func testStartingACountdownPrintsItsIdLabelAndEnd() throws {
        memoapp.onboard()
        let text = memoapp.run(["timer", "start", "25m", "--label", "라면"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("Started countdown 1 (라면): 25:00, ends at "), text.stdout)

        let timer = memoapp.timerJSON("timer", "start", "90s")
        XCTAssertEqual(timer["id"] as? Int, 2)
        XCTAssertEqual(timer["kind"] as? String, "countdown")
        XCTAssertEqual(timer["state"] as? String, "running")
        XCTAssertEqual(timer["duration"] as? Double, 90)
        XCTAssertEqual(timer["estimated"] as? Bool, false)
        XCTAssertTrue(timer["label"] is NSNull)
        let created = try XCTUnwrap(timerTime(timer["created_at"]))
        let ends = try XCTUnwrap(timerTime(timer["ends_at"]))
        XCTAssertEqual(ends.timeIntervalSince(created), 90, accuracy: 0.01)
    }

    func testStartingWithoutADurationStartsAStopwatch() {
        memoapp.onboard()
        let timer = memoapp.timerJSON("timer", "start", "--label", "run")
        XCTAssertEqual(timer["kind"] as? String, "stopwatch")
        XCTAssertTrue(timer["duration"] is NSNull)
        XCTAssertTrue(timer["remaining"] is NSNull)
        XCTAssertTrue(timer["ends_at"] is NSNull)
        XCTAssertEqual((timer["laps"] as? [Any])?.count, 0)
        XCTAssertEqual(memoapp.run(["timer", "start"]).stdout, "Started stopwatch 2.\n")
    }

    func testEveryDurationFormWorksOnTheCommandLineEvenSplitOverWords() {
        memoapp.onboard()
        let cases: [([String], Double)] = [
            (["90s"], 90), (["25m"], 1500), (["1h30m"], 5400), (["1h 30m"], 5400), (["1h", "30m"], 5400),
            (["1:30"], 90), (["1:00:00"], 3600), (["25"], 1500), (["25분"], 1500), (["1시간", "30분"], 5400),
            (["1시간 30분"], 5400), (["30초"], 30),
        ]
        for (words, seconds) in cases {
            let result = memoapp.run(["timer", "start"] + words + ["--json"])
            XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
            XCTAssertEqual(result.object()["duration"] as? Double, seconds, "\(words)")
        }
    }

    func testBadDurationsExit64NamingTheFormsAndStartNothing() {
        memoapp.onboard()
        for words in [["0"], ["0:00"], ["abc"], ["-5"], ["--", "-5m"], ["1:60"], ["25x"], ["9999h"], ["30m", "1h"]] {
            let result = memoapp.run(["timer", "start"] + words)
            XCTAssertEqual(result.status, 64, "\(words)")
            XCTAssertTrue(result.stderr.contains("1h 30m, 1:30 (m:ss), 1:00:00 (h:mm:ss)"), "\(words): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("usage: memoapp timer start"), result.stderr)
            XCTAssertEqual(result.stdout, "")
            let json = memoapp.run(["timer", "start", "--json"] + words)
            XCTAssertEqual(json.errorCode, "usage", "\(words)")
            XCTAssertEqual(json.stdout, "")
        }
        let korean = memoapp.run(["--lang", "ko", "timer", "start", "abc"])
        XCTAssertTrue(korean.stderr.contains("1시간 30분"), korean.stderr)
        XCTAssertEqual(memoapp.run(["timer", "list", "--all", "--json"]).stdout, "[]\n")
    }

    func testAMultiLineLabelIsRefused() {
        memoapp.onboard()
        let result = memoapp.run(["timer", "start", "5m", "--label", "a\nb"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("one line"), result.stderr)
    }

    func testPauseFreezesACountdownAndResumeAndCancelChangeItsState() throws {
        memoapp.onboard()
        _ = memoapp.timerJSON("timer", "start", "10m")
        let paused = memoapp.timerJSON("timer", "pause", "1")
        XCTAssertEqual(paused["state"] as? String, "paused")
        XCTAssertTrue(paused["ends_at"] is NSNull, "a paused countdown has no end yet")
        Thread.sleep(forTimeInterval: 0.2)
        let later = memoapp.timerJSON("timer", "status", "1")
        XCTAssertEqual(later["elapsed"] as? Double, paused["elapsed"] as? Double, "paused time does not count")
        XCTAssertEqual(later["remaining"] as? Double, paused["remaining"] as? Double)

        let resumed = memoapp.timerJSON("timer", "resume", "1")
        XCTAssertEqual(resumed["state"] as? String, "running")
        XCTAssertNotNil(timerTime(resumed["ends_at"]))
        let cancelled = memoapp.timerJSON("timer", "cancel", "1")
        XCTAssertEqual(cancelled["state"] as? String, "cancelled")
        XCTAssertNotNil(timerTime(cancelled["ended_at"]))
        XCTAssertEqual(memoapp.run(["timer", "pause", "1"]).status, 5)
        let text = memoapp.run(["timer", "start", "5m"])
        // 5:00, or a little less when the machine is slow between the two commands.
        let paused2 = memoapp.run(["timer", "pause", "2"]).stdout
        XCTAssertNotNil(paused2.range(of: #"^Paused timer 2 at (5:00|4:[0-5][0-9]) left\.\n$"#, options: .regularExpression),
                        paused2 + text.stderr)
    }

    func testLapsAndStopOnAStopwatch() throws {
        memoapp.onboard()
        _ = memoapp.timerJSON("timer", "start")
        _ = memoapp.timerJSON("timer", "lap", "1")
        Thread.sleep(forTimeInterval: 0.05)
        let second = memoapp.timerJSON("timer", "lap", "1")
        let laps = try XCTUnwrap(second["laps"] as? [[String: Any]])
        XCTAssertEqual(laps.map { $0["number"] as? Int }, [1, 2])
        let first = try XCTUnwrap(laps[0]["elapsed"] as? Double)
        let next = try XCTUnwrap(laps[1]["elapsed"] as? Double)
        XCTAssertGreaterThan(next, first)
        XCTAssertEqual(laps[1]["split"] as? Double ?? -1, next - first, accuracy: 0.002)

        let stopped = memoapp.timerJSON("timer", "stop", "1")
        XCTAssertEqual(stopped["state"] as? String, "stopped")
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(memoapp.timerJSON("timer", "status", "1")["elapsed"] as? Double, stopped["elapsed"] as? Double,
                       "a stopped stopwatch keeps its total")
        let text = memoapp.run(["timer", "status", "1"])
        XCTAssertTrue(text.stdout.contains("Timer 1 · stopwatch · stopped"), text.stdout)
        XCTAssertTrue(text.stdout.contains("#2"), text.stdout)
    }

    func testActionsTheStateDoesNotAllowExit5NamingTheState() {
        memoapp.onboard()
        _ = memoapp.run(["timer", "start", "10m"])
        _ = memoapp.run(["timer", "pause", "1"])
        _ = memoapp.run(["timer", "start"])
        _ = memoapp.run(["timer", "stop", "2"])
        let cases: [([String], String)] = [
            (["pause", "1"], "Cannot pause timer 1: it is already paused."),
            (["lap", "1"], "Cannot record a lap on timer 1: it is a countdown; laps are for stopwatches."),
            (["stop", "1"], "it is a countdown"),
            (["resume", "2"], "Cannot resume timer 2: it is stopped."),
            (["lap", "2"], "it is stopped"),
            (["cancel", "2"], "it is stopped"),
        ]
        for (args, message) in cases {
            let result = memoapp.run(["timer"] + args)
            XCTAssertEqual(result.status, 5, "\(args)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
            XCTAssertEqual(memoapp.run(["timer"] + args + ["--json"]).errorCode, "invalid_state")
        }
        let korean = memoapp.run(["--lang", "ko", "timer", "pause", "1"])
        XCTAssertTrue(korean.stderr.contains("이미 일시정지된 상태"), korean.stderr)
    }

    func testUnknownIdsExit4AndMalformedOnesExit64() {
        memoapp.onboard()
        for action in ["pause", "resume", "cancel", "lap", "stop", "status", "wait"] {
            let missing = memoapp.run(["timer", action, "99", "--json"])
            XCTAssertEqual(missing.status, 4, action)
            XCTAssertEqual(missing.errorCode, "not_found", action)
            XCTAssertEqual(memoapp.run(["timer", action, "x"]).status, 64, action)
            XCTAssertEqual(memoapp.run(["timer", action, "0"]).status, 64, action)
        }
        XCTAssertEqual(memoapp.run(["timer", "pause"]).status, 64, "pause needs an id")
    }

    func testListShowsActiveTimersAndAllShowsEndedOnesToo() {
        memoapp.onboard()
        _ = memoapp.run(["timer", "start", "10m", "--label", "tea"])
        _ = memoapp.run(["timer", "start"])
        _ = memoapp.run(["timer", "pause", "2"])
        _ = memoapp.run(["timer", "start", "5m"])
        _ = memoapp.run(["timer", "cancel", "3"])
        let active = memoapp.run(["timer", "list", "--json"]).array()
        XCTAssertEqual(active.map { $0["id"] as? Int }, [1, 2])
        let all = memoapp.run(["timer", "list", "--all", "--json"]).array()
        XCTAssertEqual(all.map { $0["state"] as? String }, ["running", "paused", "cancelled"])
        let text = memoapp.run(["timer", "list"]).stdout
        XCTAssertTrue(text.contains("tea"), text)
        // Started moments ago: 10:00 left, or a little less on a slow machine
        // (the command runs after the start, by a clock this test cannot hold).
        XCTAssertNotNil(text.range(of: #"\b(10:00|9:[0-5][0-9]) left"#, options: .regularExpression), text)
        XCTAssertFalse(text.contains("cancelled"), text)
    }

    func testAnEmptyListSaysSo() {
        memoapp.onboard()
        XCTAssertEqual(memoapp.run(["timer", "list"]).stdout, "No running or paused timers.\n")
        XCTAssertEqual(memoapp.run(["timer", "list", "--all"]).stdout, "No timers.\n")
    }

    func testStatusWithoutAnIdShowsTheNewestRunningTimer() {
        memoapp.onboard()
        XCTAssertEqual(memoapp.run(["timer", "status"]).status, 4, "nothing runs yet")
        _ = memoapp.run(["timer", "start", "10m"])
        _ = memoapp.run(["timer", "start", "20m"])
        _ = memoapp.run(["timer", "start", "30m"])
        _ = memoapp.run(["timer", "pause", "3"])
        XCTAssertEqual(memoapp.timerJSON("timer", "status")["id"] as? Int, 2)
        let text = memoapp.run(["timer", "status"]).stdout
        XCTAssertTrue(text.hasPrefix("Timer 2 · countdown · running\n"), text)
        XCTAssertTrue(text.contains("Remaining:"), text)
    }

    func testACountdownThatEndedWhileNothingWatchedShowsAsFinishedAtItsEnd() throws {
        memoapp.onboard()
        let started = memoapp.timerJSON("timer", "start", "0.3s")
        Thread.sleep(forTimeInterval: 0.6)
        // Listed once more, finished, as not yet seen; then it leaves the list.
        XCTAssertEqual(memoapp.run(["timer", "list", "--json"]).array().first?["state"] as? String, "finished")
        XCTAssertEqual(memoapp.run(["timer", "list", "--json"]).stdout, "[]\n", "it left the active list")
        let finished = memoapp.timerJSON("timer", "status", "1")
        XCTAssertEqual(finished["state"] as? String, "finished")
        XCTAssertEqual(finished["remaining"] as? Double, 0)
        XCTAssertEqual(finished["elapsed"] as? Double, 0.3)
        let created = try XCTUnwrap(timerTime(started["created_at"]))
        let ended = try XCTUnwrap(timerTime(finished["ended_at"]))
        XCTAssertEqual(ended.timeIntervalSince(created), 0.3, accuracy: 0.005, "finished at its end, not when looked at")
        XCTAssertEqual(finished["ends_at"] as? String, finished["ended_at"] as? String)
        let text = memoapp.run(["timer", "status", "1"]).stdout
        XCTAssertTrue(text.contains("Finished at:"), text)
    }

    func testTheMainScreenShowsRunningTimers() throws {
        memoapp.onboard()
        XCTAssertTrue(memoapp.run([]).stdout.contains("No timers running."))
        _ = memoapp.run(["timer", "start", "10m", "--label", "빨래"])
        let text = memoapp.run([])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Timers"), text.stdout)
        XCTAssertTrue(text.stdout.contains("빨래"), text.stdout)
        let screen = memoapp.run(["--json"]).object()
        let timers = try XCTUnwrap(screen["timers"] as? [[String: Any]])
        XCTAssertEqual(timers.map { $0["label"] as? String }, ["빨래"])
    }

    func testEveryTimerCommandAnswersHelpWithoutTouchingTheHome() {
        for command in ["start", "list", "status", "pause", "resume", "cancel", "lap", "stop", "wait"] {
            let result = memoapp.run(["timer", command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.contains("usage: memoapp timer \(command)"), result.stdout)
        }
        XCTAssertTrue(memoapp.run(["timer", "start", "--help"]).stdout.contains("1시간 30분"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: memoapp.home))
    }
}
