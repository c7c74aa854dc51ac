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
             "$.timers[0].laps[0].elapsed: a lap cannot be negative"),
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
}
