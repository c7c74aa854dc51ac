import Foundation
import MemoCore
import SQLite
import Timers
import XCTest

final class TimerStoreTests: XCTestCase {
    private var directory: URL!
    private let clock = ManualTimerClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeStore(clock: (any TimerClock)? = nil) throws -> TimerStore {
        TimerStore(connection: try makeConnection(in: directory), clock: clock ?? self.clock)
    }

    func testAStartedTimerReadsBackAsItWasSaved() throws {
        let store = try makeStore()
        let countdown = try store.start(duration: 90, label: "차")
        let stopwatch = try store.start(duration: nil, label: nil)
        XCTAssertEqual(countdown.timer.id, 1)
        XCTAssertEqual(stopwatch.timer.id, 2)
        let other = try makeStore()
        XCTAssertEqual(try other.snapshot(ofTimer: 1).timer, countdown.timer)
        XCTAssertEqual(try other.snapshot(ofTimer: 2).timer, stopwatch.timer)
        XCTAssertEqual(countdown.timer.kind, .countdown)
        XCTAssertEqual(countdown.timer.label, "차")
        XCTAssertEqual(countdown.endTime, clock.reading().wall.adding(seconds: 90))
        XCTAssertEqual(stopwatch.timer.kind, .stopwatch)
    }

    func testAnUnknownIDIsNotFound() throws {
        let store = try makeStore()
        let error = assertMemoError(.notFound) { try store.snapshot(ofTimer: 42) }
        XCTAssertEqual(error?.message.en, "No timer with id 42.")
        assertMemoError(.notFound) { try store.apply(.pause, toTimer: 42) }
    }

    func testActionsAreSavedAndSeenByAnotherConnection() throws {
        let store = try makeStore()
        let id = try store.start(duration: nil, label: nil).timer.id
        clock.advance(by: 3)
        _ = try store.apply(.lap, toTimer: id)
        clock.advance(by: 2)
        _ = try store.apply(.pause, toTimer: id)
        clock.advance(by: 50)
        _ = try store.apply(.resume, toTimer: id)
        clock.advance(by: 1)
        let stopped = try store.apply(.stop, toTimer: id)
        let reread = try makeStore().snapshot(ofTimer: id)
        XCTAssertEqual(reread.timer, stopped.timer)
        XCTAssertEqual(reread.timer.state, .stopped)
        XCTAssertEqual(reread.elapsed.seconds, 6)
        XCTAssertEqual(reread.timer.laps.map(\.elapsed), [3])
        XCTAssertEqual(reread.timer.spans.count, 2)
    }

    func testARefusedActionChangesNothing() throws {
        let store = try makeStore()
        let id = try store.start(duration: 60, label: nil).timer.id
        let before = try store.snapshot(ofTimer: id).timer
        assertMemoError(.invalidState) { try store.apply(.resume, toTimer: id) }
        assertMemoError(.invalidState) { try store.apply(.lap, toTimer: id) }
        XCTAssertEqual(try store.snapshot(ofTimer: id).timer, before)
    }

    func testEachActionActsOnTheStateAnotherProcessLeft() throws {
        let first = try makeStore()
        let second = try makeStore()
        let id = try first.start(duration: 60, label: nil).timer.id
        _ = try second.snapshot(ofTimer: id)  // second has seen it running
        _ = try first.apply(.pause, toTimer: id)
        let error = assertMemoError(.invalidState) { try second.apply(.pause, toTimer: id) }
        XCTAssertTrue(error?.message.en.contains("already paused") ?? false)
        XCTAssertEqual(try second.apply(.resume, toTimer: id).timer.state, .running)
    }

    func testTheListHoldsActiveTimersAndWithAllTheEndedOnesToo() throws {
        let store = try makeStore()
        let running = try store.start(duration: 600, label: nil).timer.id
        let paused = try store.start(duration: nil, label: nil).timer.id
        _ = try store.apply(.pause, toTimer: paused)
        let cancelled = try store.start(duration: 60, label: nil).timer.id
        _ = try store.apply(.cancel, toTimer: cancelled)
        let stopped = try store.start(duration: nil, label: nil).timer.id
        _ = try store.apply(.stop, toTimer: stopped)
        XCTAssertEqual(try store.snapshots(includingEnded: false).map(\.timer.id), [running, paused])
        XCTAssertEqual(try store.snapshots(includingEnded: true).map(\.timer.id), [running, paused, cancelled, stopped])
    }

    func testACountdownThatEndedUnobservedLeavesTheListAndIsSavedAsFinished() throws {
        let store = try makeStore()
        let short = try store.start(duration: 30, label: nil)
        let long = try store.start(duration: 3000, label: nil).timer.id
        clock.advance(by: 100)
        XCTAssertEqual(try rawState(short.timer.id), "running", "nothing has looked yet")
        XCTAssertEqual(try store.snapshots(includingEnded: false).map(\.timer.id), [long])
        XCTAssertEqual(try rawState(short.timer.id), "finished")
        let finished = try store.snapshot(ofTimer: short.timer.id)
        XCTAssertEqual(finished.timer.endedAt, short.timer.createdAt.adding(seconds: 30))
    }

    func testAWaitersReadWritesNothingButReportsTheTrueState() throws {
        let store = try makeStore()
        let id = try store.start(duration: 1, label: nil).timer.id
        clock.advance(by: 2)
        let seen = try store.snapshot(ofTimer: id, persistingSettlement: false)
        XCTAssertEqual(seen.timer.state, .finished)
        XCTAssertEqual(try rawState(id), "running")
        _ = try store.snapshot(ofTimer: id)
        XCTAssertEqual(try rawState(id), "finished")
    }

    func testAReadReportsTheTrueStateEvenWhenItCannotSaveIt() throws {
        let id = try makeStore().start(duration: 1, label: nil).timer.id
        clock.advance(by: 5)
        let locker = try makeConnection(in: directory)
        try locker.execute("BEGIN IMMEDIATE")  // another process holds the write lock
        let path = directory.appendingPathComponent("memoapp.db").path
        let impatient = TimerStore(connection: try Connection(path: path, busyTimeoutMilliseconds: 20), clock: clock)
        XCTAssertEqual(try impatient.snapshot(ofTimer: id).timer.state, .finished)
        XCTAssertEqual(try impatient.snapshots(includingEnded: true).map(\.timer.state), [.finished])
        XCTAssertEqual(try impatient.snapshots(includingEnded: false).count, 0)
        assertMemoError(.notFound) { try impatient.newestRunning() }
        try locker.execute("ROLLBACK")
        XCTAssertEqual(try rawState(id), "running", "nothing could be saved")
    }

    func testAfterARebootTheOpenSpanIsSplitAndSaved() throws {
        let store = try makeStore()
        let id = try store.start(duration: nil, label: nil).timer.id
        clock.advance(by: 10)
        clock.reboot(downtime: 20)
        let snapshot = try store.snapshot(ofTimer: id)
        XCTAssertEqual(snapshot.elapsed, MeasuredDuration(seconds: 30, isEstimated: true))
        let spans = try makeConnection(in: directory).query(
            "SELECT start_boot_id, end_boot_id FROM timer_spans WHERE timer_id = ? ORDER BY position", id
        ) { [$0.string(0), $0.optionalString(1) ?? "open"] }
        XCTAssertEqual(spans, [["boot-1", "boot-2"], ["boot-2", "open"]])
    }

    func testTheNewestRunningTimerSkipsPausedAndFinishedOnes() throws {
        let store = try makeStore()
        let olderCountdown = try store.start(duration: 600, label: nil).timer.id
        let stopwatch = try store.start(duration: nil, label: nil).timer.id
        let paused = try store.start(duration: 600, label: nil).timer.id
        _ = try store.apply(.pause, toTimer: paused)
        clock.advance(by: 1)
        _ = try store.start(duration: 1, label: nil)  // ends before anyone asks
        clock.advance(by: 5)
        XCTAssertEqual(try store.newestRunning().timer.id, stopwatch)
        XCTAssertEqual(try store.newestRunning(kind: .countdown).timer.id, olderCountdown)
        _ = try store.apply(.cancel, toTimer: olderCountdown)
        let error = assertMemoError(.notFound) { try store.newestRunning(kind: .countdown) }
        XCTAssertEqual(error?.message.en, "No countdown is running.")
        _ = try store.apply(.stop, toTimer: stopwatch)
        assertMemoError(.notFound) { try store.newestRunning() }
    }

    func testADamagedRowIsReportedAsAStorageFailure() throws {
        let store = try makeStore()
        let id = try store.start(duration: 60, label: nil).timer.id
        // Running, yet its only span is closed: no sequence of commands does that.
        try store.connection.execute(
            "UPDATE timer_spans SET end_wall = start_wall, end_boot = start_boot, end_boot_id = start_boot_id")
        let error = assertMemoError(.storage) { try store.snapshot(ofTimer: id) }
        XCTAssertTrue(error?.message.en.contains("running without an open span") ?? false, "\(String(describing: error))")
    }

    func testTheSchemaRefusesASecondOpenSpanAndImpossibleRows() throws {
        let store = try makeStore()
        let id = try store.start(duration: 60, label: nil).timer.id
        XCTAssertThrowsError(try store.connection.execute("""
            INSERT INTO timer_spans (timer_id, position, start_wall, start_boot, start_boot_id) VALUES (?, 1, 0, 0, 'x')
            """, id))
        XCTAssertThrowsError(try store.connection.execute(
            "INSERT INTO timers (kind, duration, state, created_at) VALUES ('stopwatch', NULL, 'finished', 0)"))
        XCTAssertThrowsError(try store.connection.execute(
            "INSERT INTO timers (kind, duration, state, created_at) VALUES ('countdown', 0, 'running', 0)"))
        XCTAssertThrowsError(try store.connection.execute(
            "INSERT INTO timers (kind, duration, state, created_at, ended_at) VALUES ('stopwatch', NULL, 'paused', 0, 1)"))
    }

    func testConcurrentPausesAndResumesFromTwoConnectionsLeaveASerialState() throws {
        let ticking = TickingClock()
        _ = try makeStore(clock: ticking).start(duration: nil, label: nil)
        let counts = Counts()
        let group = DispatchGroup()
        for worker in 0..<2 {
            let directory = self.directory!
            DispatchQueue.global().async(group: group) {
                do {
                    let store = TimerStore(connection: try makeConnection(in: directory), clock: ticking)
                    for round in 0..<150 {
                        let action: TimerAction = (round + worker) % 2 == 0 ? .pause : .resume
                        do {
                            _ = try store.apply(action, toTimer: 1)
                            counts.add(action)
                        } catch let error as MemoError where error.kind == .invalidState {}
                    }
                } catch {
                    counts.fail("\(error)")
                }
            }
        }
        group.wait()
        XCTAssertEqual(counts.failures, [])
        let timer = try makeStore(clock: ticking).snapshot(ofTimer: 1).timer
        XCTAssertEqual(timer.consistencyProblems, [])
        // Successful pauses and resumes alternate in any serial order, starting from running.
        XCTAssertEqual(counts.pauses - counts.resumes, timer.state == .paused ? 1 : 0)
        XCTAssertEqual(timer.spans.count, counts.resumes + 1)
        XCTAssertGreaterThan(counts.pauses, 0)
    }

    private func rawState(_ id: Int64) throws -> String? {
        try makeConnection(in: directory).queryFirst("SELECT state FROM timers WHERE id = ?", id) { $0.string(0) }
    }
}

/// A shared clock that moves a millisecond on every reading, like real time.
private final class TickingClock: TimerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var ticks = 0.0

    func reading() -> ClockReading {
        lock.withLock {
            ticks += 0.001
            return ClockReading(wall: Timestamp(secondsSince1970: 1_800_000_000 + ticks), boot: 100 + ticks, bootID: "b")
        }
    }
}

private final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var pauses = 0
    private(set) var resumes = 0
    private(set) var failures: [String] = []

    func add(_ action: TimerAction) {
        lock.withLock { if action == .pause { pauses += 1 } else { resumes += 1 } }
    }

    func fail(_ text: String) { lock.withLock { failures.append(text) } }
}
