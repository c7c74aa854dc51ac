import Foundation
import MemoCore
import SQLite
import Timers
import XCTest

/// Timer uids: set on every timer, unique, kept through every action, and
/// the one an importer passes is the one stored.
final class TimerUIDTests: XCTestCase {
    private var directory: URL!
    private let clock = ManualTimerClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeStore() throws -> TimerStore {
        TimerStore(connection: try makeConnection(in: directory), clock: clock)
    }

    func testEveryTimerGetsADifferentWellFormedUIDThatIsStored() throws {
        let store = try makeStore()
        let started = try (0..<30).map { try store.start(duration: $0 % 2 == 0 ? nil : 60, label: nil).timer }
        XCTAssertTrue(started.allSatisfy { UUID4.isWellFormed($0.uid) })
        XCTAssertEqual(Set(started.map(\.uid)).count, 30)
        let reread = try makeStore().snapshots(includingEnded: true).map(\.timer.uid)
        XCTAssertEqual(reread, started.map(\.uid))
    }

    func testTheUIDSurvivesEveryAction() throws {
        let store = try makeStore()
        let timer = try store.start(duration: nil, label: "run").timer
        for action in [TimerAction.lap, .pause, .resume, .lap, .stop] {
            clock.advance(by: 2)
            XCTAssertEqual(try store.apply(action, toTimer: timer.id).timer.uid, timer.uid, "\(action)")
        }
        XCTAssertEqual(try makeStore().snapshot(ofTimer: timer.id).timer.uid, timer.uid)
    }

    func testAGivenUIDIsStoredAndADuplicateIsRefused() throws {
        let store = try makeStore()
        let uid = "0f0e0d0c-0b0a-4908-8706-050403020100"
        let timer = try store.start(duration: 30, label: nil, uid: uid).timer
        XCTAssertEqual(timer.uid, uid)
        XCTAssertEqual(try makeStore().snapshot(ofTimer: timer.id).timer.uid, uid)
        let error = assertMemoError(.duplicate) { try store.start(duration: nil, label: "again", uid: uid) }
        XCTAssertEqual(error?.message.en, "a timer with uid \(uid) already exists")
        XCTAssertEqual(error?.message.ko, "uid가 \(uid)인 타이머가 이미 있습니다")
        XCTAssertEqual(try store.snapshots(includingEnded: true).count, 1)
        let spans = try store.connection.queryFirst("SELECT count(*) FROM timer_spans") { $0.int(0) }
        XCTAssertEqual(spans, 1, "the refused timer left no span")
    }

    func testAMalformedUIDIsBadInput() throws {
        let store = try makeStore()
        assertMemoError(.badInput) { try store.start(duration: nil, label: nil, uid: "timer-1") }
        XCTAssertEqual(try store.snapshots(includingEnded: true).count, 0)
    }

    func testTheMigrationGivesExistingTimersUIDs() throws {
        let connection = try Connection(path: directory.appendingPathComponent("old.db").path)
        var before = Migrator()
        before.register(Array(TimerStore.migrations.prefix(1)))
        try before.apply(to: connection)
        for _ in 0..<20 {
            try connection.execute("INSERT INTO timers (kind, state, created_at, ended_at) VALUES ('stopwatch', 'stopped', 0, 1)")
        }
        var after = Migrator()
        after.register(TimerStore.migrations)
        try after.apply(to: connection)
        let uids = try connection.query("SELECT uid FROM timers") { $0.optionalString(0) }
        XCTAssertEqual(Set(uids.compactMap { $0 }.filter(UUID4.isWellFormed)).count, 20)
        try connection.execute("INSERT INTO timers (kind, state, created_at, ended_at) VALUES ('stopwatch', 'stopped', 0, 1)")
        XCTAssertEqual(try connection.countRowsWithoutUID(in: "timers"), 1, "a row inserted by hand")
        XCTAssertEqual(try connection.writeTransaction { try connection.fillMissingUIDs(in: "timers") }, 1)
        let filled = try connection.queryFirst("SELECT uid FROM timers WHERE id = 21") { $0.optionalString(0) }
        XCTAssertTrue(filled.flatMap { $0 }.map(UUID4.isWellFormed) ?? false)
    }
}
