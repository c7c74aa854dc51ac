import Foundation
import TestSupport
import XCTest

/// `memoapp remind` on the built binary: a notify-send stub on PATH records
/// its arguments, `--exec` records its environment, a write from another
/// memoapp wakes the watcher, each event is told once across restarts, and
/// an idle watcher costs no CPU. Every wait is for a recorded result, with a
/// generous timeout; nothing asserts how fast a thing happens.
final class RemindEndToEndTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var memoapp: Memoapp!
    private var stubs: String!

    override func setUpWithError() throws {
        var memoapp = Memoapp(home: folder.appending("home"))
        memoapp.environment["TZ"] = "UTC"
        self.memoapp = memoapp
        memoapp.onboard()
        stubs = folder.appending("stubs")
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
    }

    /// A `notify-send` that appends its arguments, one a line, then `--`.
    private func installNotifySend() throws -> String {
        let record = folder.appending("notify.log")
        let script = stubs + "/notify-send"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \"\(record)\"\nprintf -- '--\\n' >> \"\(record)\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script, 0o755), 0)
        return record
    }

    /// `YYYY-MM-DD HH:MM` in UTC, `minutes` from now: a reminder time in the
    /// past whatever today is (the watcher tells it as missed).
    private func minuteText(minutesFromNow minutes: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date().addingTimeInterval(minutes * 60))
    }

    func testACountdownEndingSendsADesktopNotificationAndALine() throws {
        let record = try installNotifySend()
        let watcher = try WatchingMemoapp(memoapp, in: folder, environment: ["PATH": stubs])
        XCTAssertTrue(eventually { watcher.output.contains("Watching") }, watcher.errors)
        XCTAssertEqual(memoapp.run("timer", "start", "1s", "--label", "tea").status, 0)
        XCTAssertTrue(eventually { contents(of: record).contains("--") }, "notify-send ran: \(watcher.errors)")
        let arguments = contents(of: record).split(separator: "\n").map(String.init)
        XCTAssertEqual(arguments.count, 5, contents(of: record))
        XCTAssertEqual(Array(arguments.prefix(3)), ["-a", "memoapp", "Timer finished"])
        XCTAssertTrue(arguments.count > 3 && arguments[3].hasPrefix("tea ("), contents(of: record))
        XCTAssertTrue(eventually { watcher.output.contains("Timer finished: timer 1 \"tea\"") }, watcher.output)
        XCTAssertFalse(watcher.output.contains("\u{7}"), "no bell when a notification was sent")
        XCTAssertEqual(watcher.stop(signal: SIGINT), 0)
    }

    func testExecGetsTheEventAndACommandLineWriteWakesTheWatcher() throws {
        let record = folder.appending("exec.log")
        let command = #"printf '%s|%s|%s|%s|%s\n' "$MEMOAPP_EVENT" "$MEMOAPP_ID" "$MEMOAPP_TITLE" "$MEMOAPP_AT" "$MEMOAPP_MISSED" >> "$RECORD""#
        let watcher = try WatchingMemoapp(memoapp, in: folder, arguments: ["--exec", command],
                                          environment: ["PATH": stubs, "RECORD": record])
        XCTAssertTrue(eventually { watcher.output.contains("Watching") }, watcher.errors)
        // Written while the watcher sleeps with nothing ahead: only the write can wake it.
        let added = memoapp.run("todo", "add", "call mom", "--remind", minuteText(minutesFromNow: -2), "--json").object()
        let id = try XCTUnwrap(added["id"] as? Int)
        XCTAssertNotNil(added["remind_at"] as? String)
        XCTAssertTrue(eventually { contents(of: record).contains("\n") }, "the command ran: \(watcher.errors)")
        let fields = contents(of: record).split(separator: "\n")[0].split(separator: "|", omittingEmptySubsequences: false)
        XCTAssertEqual(fields.count, 5)
        XCTAssertEqual(fields[0], "todo.remind")
        XCTAssertEqual(fields[1], Substring(String(id)))
        XCTAssertEqual(fields[2], "call mom")
        XCTAssertNotNil(documentTime(String(fields[3])), String(fields[3]))
        XCTAssertEqual(fields[4], "1", "two minutes late is missed")
        XCTAssertTrue(eventually { watcher.output.contains("Missed: To-do reminder: to-do \(id) \"call mom\"") },
                      watcher.output)
        XCTAssertTrue(watcher.output.contains("\u{7}"), "the bell when no notification can be sent")
        XCTAssertEqual(watcher.stop(), 0)

        // A new watcher: the told reminder stays told. A countdown started
        // after it is told at its end, which proves the start-up look is over.
        let restarted = try WatchingMemoapp(memoapp, in: folder, arguments: ["--exec", command],
                                            environment: ["PATH": stubs, "RECORD": record])
        XCTAssertEqual(memoapp.run("timer", "start", "1s").status, 0)
        XCTAssertTrue(eventually { contents(of: record).contains("timer.finished|") }, restarted.errors)
        XCTAssertEqual(contents(of: record).components(separatedBy: "todo.remind|").count - 1, 1, contents(of: record))
        XCTAssertEqual(restarted.stop(), 0)
    }

    func testJSONPrintsOneLinePerEvent() throws {
        let watcher = try WatchingMemoapp(memoapp, in: folder, arguments: ["--json"], environment: ["PATH": stubs])
        XCTAssertEqual(memoapp.run("timer", "start", "1s", "--label", "차").status, 0)
        XCTAssertTrue(eventually { watcher.output.hasSuffix("\n") }, watcher.errors)
        XCTAssertEqual(watcher.stop(), 0)
        let lines = watcher.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, watcher.output)
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(event["event"] as? String, "timer.finished")
        XCTAssertEqual(event["item"] as? String, "timer")
        XCTAssertEqual(event["id"] as? Int, 1)
        XCTAssertEqual(event["title"] as? String, "차")
        XCTAssertEqual(event["missed"] as? Bool, false)
        XCTAssertNotNil(documentTime(event["at"] as? String ?? ""))
    }

    func testAnIdleWatcherUsesNoCPU() throws {
        let watcher = try WatchingMemoapp(memoapp, in: folder, environment: ["PATH": stubs])
        XCTAssertTrue(eventually { watcher.output.contains("Watching") }, watcher.errors)
        // The start-up look (opening the database, one read) runs once, after
        // the banner; a second is ample for it even on a loaded machine.
        Thread.sleep(forTimeInterval: 1)
        let before = try XCTUnwrap(watcher.cpuTicks)
        Thread.sleep(forTimeInterval: 2)
        let after = try XCTUnwrap(watcher.cpuTicks)
        // A polling loop would show here; a sleeping one spends nothing. 5 ticks
        // (50 ms at 100 Hz) leaves room for a scheduler's rounding.
        XCTAssertLessThanOrEqual(after - before, 5, "CPU ticks while idle for 2 s")
        XCTAssertEqual(watcher.stop(), 0)
    }

    func testTheGateAndBadOptions() {
        let fresh = Memoapp(home: folder.appending("fresh"))
        XCTAssertEqual(fresh.run("remind").status, 3)
        XCTAssertEqual(memoapp.run("remind", "--exec", " ").status, 64)
        XCTAssertEqual(memoapp.run("remind", "--exec").status, 64)
        XCTAssertEqual(memoapp.run("remind", "extra").status, 64)
        XCTAssertEqual(memoapp.run("remind", "--help").status, 0)
    }

    func testRemindOnToDosIsSetMovedAndRemoved() {
        let added = memoapp.run("todo", "add", "report", "--remind", "2030-01-02", "--json").object()
        XCTAssertEqual(added["remind_at"] as? String, "2030-01-02T09:00:00.000Z", "a date alone is its morning")
        let moved = memoapp.run("todo", "edit", "1", "--remind", "2030-01-03 18:30", "--json").object()
        XCTAssertEqual(moved["remind_at"] as? String, "2030-01-03T18:30:00.000Z")
        XCTAssertTrue(memoapp.run("todo", "show", "1").stdout.contains("2030-01-03 18:30"))
        let removed = memoapp.run("todo", "edit", "1", "--no-remind", "--json").object()
        XCTAssertTrue(removed["remind_at"] is NSNull)
        XCTAssertEqual(memoapp.run("undo").status, 0)
        XCTAssertEqual(memoapp.run("todo", "show", "1", "--json").object()["remind_at"] as? String,
                       "2030-01-03T18:30:00.000Z", "undo restores the reminder time")
        let bad = memoapp.run("todo", "add", "x", "--remind", "someday")
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(memoapp.run("todo", "edit", "1", "--remind", "2030-01-01", "--no-remind").status, 64)
        XCTAssertEqual(memoapp.run("todo", "list", "--json").array().count, 1, "the bad add stored nothing")
    }
}
