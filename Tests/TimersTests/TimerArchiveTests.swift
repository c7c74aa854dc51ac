import Foundation
import MemoCore
import SQLite
@testable import Timers
import XCTest

/// Timers out to the export's JSON and back: spans, laps and all three clock
/// readings exact; timers no command could make refused with their path.
final class TimerArchiveTests: XCTestCase {
    private var directory: URL!
    private let clock = ManualTimerClock(wall: 1_795_958_644.123_456_7, boot: 5_000.25)

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func reparsed(_ json: JSON, index: Int = 0) throws -> JSONReader {
        JSONReader(try JSON.parse(Array(json.serialized.utf8)),
                   path: JSONPath.root.appending(key: "timers").appending(index: index), source: "export.json")
    }

    /// A running stopwatch with laps across a pause, a paused countdown, a
    /// finished one and a stopped stopwatch.
    private func makeTimers(_ store: TimerStore) throws {
        let stopwatch = try store.start(duration: nil, label: "달리기 🏃").timer.id
        clock.advance(by: 1.5)
        _ = try store.apply(.lap, toTimer: stopwatch)
        _ = try store.apply(.pause, toTimer: stopwatch)
        clock.advance(by: 10)
        _ = try store.apply(.resume, toTimer: stopwatch)
        clock.advance(by: 0.25)
        _ = try store.apply(.lap, toTimer: stopwatch)
        let paused = try store.start(duration: 90, label: nil).timer.id
        clock.advance(by: 3)
        _ = try store.apply(.pause, toTimer: paused)
        _ = try store.start(duration: 1, label: "tea")
        let stopped = try store.start(duration: nil, label: nil).timer.id
        clock.reboot(downtime: 30)
        _ = try store.apply(.stop, toTimer: stopped)
        clock.advance(by: 5)
        _ = try store.snapshots(includingEnded: true)  // the countdown of 1 s is saved as finished
    }

    func testEveryTimerSurvivesExportAndImportExactly() throws {
        let store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
        try makeTimers(store)
        let exported = try store.connection.readTransaction { try TimerArchive.exportTimers(from: store.connection) }
        XCTAssertEqual(exported.count, 4)
        let read = try exported.enumerated().map { try TimerArchive.timer(from: try reparsed($1, index: $0)) }
        let stored = try store.snapshots(includingEnded: true).map(\.timer)
        XCTAssertEqual(read, stored)
        XCTAssertEqual(read.map(\.state), [.running, .paused, .finished, .stopped])

        let copyFolder = directory.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
        let copy = TimerStore(connection: try makeConnection(in: copyFolder), clock: clock)
        XCTAssertTrue(try TimerArchive.isEmpty(copy.connection))
        try copy.connection.writeTransaction {
            for timer in read { try TimerArchive.insert(timer, keepingID: true, into: copy.connection) }
        }
        XCTAssertFalse(try TimerArchive.isEmpty(copy.connection))
        XCTAssertEqual(try TimerArchive.exportTimers(from: copy.connection), exported)
        // The running stopwatch goes on running where it was.
        clock.advance(by: 2)
        XCTAssertEqual(try copy.snapshot(ofTimer: 1).elapsed, try store.snapshot(ofTimer: 1).elapsed)
        XCTAssertEqual(try copy.apply(.lap, toTimer: 1).timer.laps.count, 3)
    }

    func testANewIDIsGivenUnlessKeptAndADuplicateUIDIsRefused() throws {
        let store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
        let existing = try store.start(duration: nil, label: nil).timer
        var incoming = existing
        incoming.uid = UUID4.random()
        let id = try store.connection.writeTransaction {
            try TimerArchive.insert(incoming, keepingID: false, into: store.connection)
        }
        XCTAssertEqual(id, 2)
        XCTAssertTrue(try TimerArchive.contains(uid: incoming.uid, in: store.connection))
        assertMemoError(.duplicate) {
            try store.connection.writeTransaction { try TimerArchive.insert(incoming, keepingID: false, into: store.connection) }
        }
        XCTAssertEqual(try store.snapshots(includingEnded: true).count, 2)
    }

    func testTimersNoCommandCouldMakeAreRefusedNamingTheirPath() throws {
        let store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
        let stopwatch = try store.start(duration: nil, label: nil).timer
        _ = try store.apply(.lap, toTimer: stopwatch.id)
        let good = TimerArchive.json(try store.snapshot(ofTimer: stopwatch.id).timer)
        func with(_ change: (inout [(String, JSON)]) -> Void) -> JSON {
            guard case var .object(members) = good else { return good }
            change(&members)
            return .object(members)
        }
        func set(_ key: String, _ value: JSON) -> JSON {
            with { members in members[members.firstIndex { $0.0 == key }!].1 = value }
        }
        let cases: [(JSON, String)] = [
            (set("kind", .string("alarm")), "$.timers[0].kind: the kind must be countdown or stopwatch"),
            (set("state", .string("paused")), "$.timers[0]: not a timer memoapp could have made: span 0 open while paused"),
            (set("duration", .int(60)), "$.timers[0]: not a timer memoapp could have made: stopwatch with a duration"),
            (set("ended_at", .string("2026-11-29T13:24:04Z")),
             "$.timers[0]: not a timer memoapp could have made: state running with ended_at 2026-11-29T13:24:04Z"),
            (set("spans", .array([])), "$.timers[0]: not a timer memoapp could have made: no running span; running without an open span"),
            (set("laps", .array([.object([("number", .int(2)), ("elapsed", .int(1)), ("is_estimated", .bool(false)),
                                          ("recorded_at", .string("2026-11-29T13:24:04Z"))])])),
             "$.timers[0]: not a timer memoapp could have made: lap 1 numbered 2"),
            (set("laps", .array([.object([("number", .int(1)), ("elapsed", .double(-1)), ("is_estimated", .bool(false)),
                                          ("recorded_at", .string("2026-11-29T13:24:04Z"))])])),
             "$.timers[0].laps[0].elapsed: a lap's total must be 0 to 315537897599 seconds"),
            (set("spans", .array([.object([("start", .object([("wall", .string("2026-11-29T13:24:04Z")),
                                                                ("boot", .string("5")), ("boot_id", .string("b"))])),
                                            ("end", .null)])])),
             "$.timers[0].spans[0].start.boot: expected a number, found a string"),
        ]
        for (json, message) in cases {
            let error = assertMemoError(.badInput) { try TimerArchive.timer(from: try reparsed(json)) }
            XCTAssertEqual(error?.message.en, "export.json: " + message)
        }
    }

    /// Values a later command could not compute with or show are refused at
    /// their path, never stored: lengths past a year, laps and boot readings
    /// past any span memoapp measures, labels that `timer start` refuses.
    func testValuesOutsideWhatMemoappComputesWithAreRefusedNamingTheirPath() throws {
        let store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
        let countdown = TimerArchive.json(try store.start(duration: 60, label: "tea").timer)
        let stopwatch = try store.start(duration: nil, label: nil).timer
        _ = try store.apply(.lap, toTimer: stopwatch.id)
        let laps = TimerArchive.json(try store.snapshot(ofTimer: stopwatch.id).timer)
        func set(_ json: JSON, _ path: [String], _ value: JSON) -> JSON {
            guard case var .object(members) = json, let key = path.first,
                  let index = members.firstIndex(where: { $0.0 == key }) else { return json }
            if path.count == 1 {
                members[index].1 = value
            } else if case let .array(items) = members[index].1 {
                members[index].1 = .array([set(items[0], Array(path.dropFirst()), value)] + items.dropFirst())
            } else {
                members[index].1 = set(members[index].1, Array(path.dropFirst()), value)
            }
            return .object(members)
        }
        let year = "31536000"
        let cases: [(JSON, String)] = [
            (set(countdown, ["duration"], .double(1e19)),
             "$.timers[0].duration: a countdown lasts more than 0 and at most \(year) seconds (one year)"),
            (set(countdown, ["duration"], .double(1e308)),
             "$.timers[0].duration: a countdown lasts more than 0 and at most \(year) seconds (one year)"),
            (set(countdown, ["duration"], .int(Int64.max)),
             "$.timers[0].duration: a countdown lasts more than 0 and at most \(year) seconds (one year)"),
            (set(countdown, ["duration"], .double(-0.0)),
             "$.timers[0].duration: a countdown lasts more than 0 and at most \(year) seconds (one year)"),
            (set(laps, ["laps", "elapsed"], .double(1e300)),
             "$.timers[0].laps[0].elapsed: a lap's total must be 0 to 315537897599 seconds"),
            (set(countdown, ["spans", "start", "boot"], .int(Int64.max)),
             "$.timers[0].spans[0].start.boot: a boot clock reading must be -315537897599 to 315537897599 seconds"),
            (set(countdown, ["spans", "start", "boot"], .int(Int64.min)),
             "$.timers[0].spans[0].start.boot: a boot clock reading must be -315537897599 to 315537897599 seconds"),
            (set(countdown, ["spans", "start", "boot_id"], .string("")),
             "$.timers[0].spans[0].start.boot_id: a boot id is 1 to 64 printable ASCII characters"),
            (set(countdown, ["spans", "start", "boot_id"], .string(String(repeating: "b", count: 65))),
             "$.timers[0].spans[0].start.boot_id: a boot id is 1 to 64 printable ASCII characters"),
            (set(countdown, ["label"], .string("tea\n\u{1B}[2J")),
             "$.timers[0].label: A timer label must be one line without control characters."),
            (set(countdown, ["label"], .string(" tea")), "$.timers[0].label: a label has no spaces around it and is not empty"),
            (set(countdown, ["id"], .int(Int64.max)), "$.timers[0].id: 9223372036854775807 is outside 1...9007199254740991"),
        ]
        for (json, message) in cases {
            let error = assertMemoError(.badInput) { try TimerArchive.timer(from: try reparsed(json)) }
            XCTAssertEqual(error?.message.en, "export.json: " + message)
        }
    }

    /// A row an older memoapp or the sqlite3 shell wrote is still handed out
    /// (its figures are computed without trapping), and says what is wrong.
    func testAStoredValueOutOfRangeIsReportedNotRefused() throws {
        let store = TimerStore(connection: try makeConnection(in: directory), clock: clock)
        let id = try store.start(duration: 60, label: nil).timer.id
        try store.connection.execute("UPDATE timers SET duration = 1e19 WHERE id = ?", id)
        try store.connection.execute("UPDATE timer_spans SET start_boot = -9.3e18 WHERE timer_id = ?", id)
        let snapshot = try store.snapshot(ofTimer: id)
        XCTAssertEqual(snapshot.timer.duration, 1e19)
        XCTAssertEqual(snapshot.timer.valueProblems.count, 2, "\(snapshot.timer.valueProblems)")
        XCTAssertTrue(snapshot.timer.consistencyProblems.isEmpty)
        _ = snapshot.endTime
        _ = snapshot.remaining
    }
}
