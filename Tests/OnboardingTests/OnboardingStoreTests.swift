import Foundation
import MemoCore
import Onboarding
import SQLite
import TestSupport
import XCTest

final class OnboardingStoreTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var databasePath: String { directory.appending("memoapp.db") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    /// A new connection to the test database with the onboarding schema applied.
    private func makeStore() throws -> (OnboardingStore, Connection) {
        let connection = try Connection(path: databasePath)
        var migrator = Migrator()
        migrator.register(OnboardingStore.migrations)
        try migrator.apply(to: connection)
        return (OnboardingStore(connection: connection), connection)
    }

    private func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    // MARK: State

    func testAFreshStateIsPageOneNotCompleted() throws {
        let state = try makeStore().0.state()
        XCTAssertEqual(state.flow.currentPage, 1)
        XCTAssertEqual(state.flow.pageCount, 4)
        XCTAssertFalse(state.isCompleted)
        XCTAssertNil(state.completedAt)
    }

    func testMigrationsAreNamedForTheModule() {
        XCTAssertFalse(OnboardingStore.migrations.isEmpty)
        for migration in OnboardingStore.migrations {
            XCTAssertTrue(migration.name.hasPrefix("onboarding."), migration.name)
        }
    }

    func testMovesPersistAcrossNewConnections() throws {
        try makeStore().0.apply(.next, at: time(1))
        XCTAssertEqual(try makeStore().0.state().flow.currentPage, 2)
        try makeStore().0.apply(.goTo(4), at: time(2))
        XCTAssertEqual(try makeStore().0.state().flow.currentPage, 4)
        try makeStore().0.apply(.previous, at: time(3))
        let state = try makeStore().0.state()
        XCTAssertEqual(state.flow.currentPage, 3)
        XCTAssertFalse(state.isCompleted, "moving never completes")
    }

    func testApplyReturnsTheStateItStored() throws {
        let (store, _) = try makeStore()
        let returned = try store.apply(.goTo(3), at: time(1))
        XCTAssertEqual(returned, try store.state())
    }

    // MARK: Completion

    func testCompletionTimeIsPersisted() throws {
        try makeStore().0.apply(.skip, at: time(1_795_959_645.25))
        let state = try makeStore().0.state()
        XCTAssertTrue(state.isCompleted)
        XCTAssertEqual(state.completedAt, time(1_795_959_645.25))
    }

    func testASecondCompletionKeepsTheFirstTime() throws {
        let (store, _) = try makeStore()
        try store.apply(.skip, at: time(100))
        try store.apply(.goTo(4), at: time(200))
        let started = try store.apply(.start, at: time(300))
        XCTAssertEqual(started.completedAt, time(100))
        try store.apply(.skip, at: time(400))
        XCTAssertEqual(try makeStore().0.state().completedAt, time(100))
    }

    func testStartFromTheLastPageCompletes() throws {
        let (store, _) = try makeStore()
        try store.apply(.goTo(4), at: time(1))
        let state = try store.apply(.start, at: time(2))
        XCTAssertTrue(state.isCompleted)
        XCTAssertEqual(state.completedAt, time(2))
    }

    func testARefusedActionChangesNothing() throws {
        let (store, _) = try makeStore()
        try store.apply(.goTo(2), at: time(1))
        XCTAssertThrowsError(try store.apply(.start, at: time(2))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .invalidState)
        }
        XCTAssertThrowsError(try store.apply(.goTo(5), at: time(3))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
        }
        let state = try makeStore().0.state()
        XCTAssertEqual(state.flow.currentPage, 2)
        XCTAssertFalse(state.isCompleted)
        XCTAssertNil(state.completedAt)
    }

    // MARK: Reset

    func testResetGoesBackToPageOneNotCompleted() throws {
        let (store, _) = try makeStore()
        try store.apply(.goTo(3), at: time(1))
        try store.apply(.skip, at: time(2))
        let returned = try store.reset()
        let stored = try makeStore().0.state()
        for state in [returned, stored] {
            XCTAssertEqual(state.flow.currentPage, 1)
            XCTAssertFalse(state.isCompleted)
            XCTAssertNil(state.completedAt)
        }
    }

    func testCompletingAfterAResetRecordsTheNewTime() throws {
        let (store, _) = try makeStore()
        try store.apply(.skip, at: time(10))
        try store.reset()
        try store.apply(.skip, at: time(20))
        XCTAssertEqual(try store.state().completedAt, time(20))
    }

    // MARK: Damaged state

    func testAStoredPageOutsideTheRangeIsClamped() throws {
        let (store, connection) = try makeStore()
        try connection.execute("UPDATE onboarding_state SET current_page = ?", 9)
        XCTAssertEqual(try store.state().flow.currentPage, 4)
        try connection.execute("UPDATE onboarding_state SET current_page = ?", -2)
        XCTAssertEqual(try store.state().flow.currentPage, 1)
        XCTAssertEqual(try store.apply(.next, at: time(1)).flow.currentPage, 2)
    }

    func testAMissingRowReadsAsFreshAndIsWrittenAgain() throws {
        let (store, connection) = try makeStore()
        try connection.execute("DELETE FROM onboarding_state")
        XCTAssertEqual(try store.state().flow.currentPage, 1)
        try store.apply(.goTo(3), at: time(1))
        XCTAssertEqual(try makeStore().0.state().flow.currentPage, 3)
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM onboarding_state") { $0.int(0) }, 1)
    }

    func testTheTableHoldsOneRowOnly() throws {
        let (_, connection) = try makeStore()
        XCTAssertThrowsError(try connection.execute("INSERT INTO onboarding_state (id) VALUES (?)", 2))
    }

    // MARK: Concurrency

    func testTwoConnectionsActingAtOnceEndInASerialState() throws {
        // Each round, from page 1: thread A does next, next; thread B does next, skip.
        // Every serial order of those four ends on page 4, completed at B's time;
        // a lost update (two reads of the same row before either write) would not.
        let stores = [try makeStore(), try makeStore()]
        let failures = Failures()
        for round in 1...40 {
            try stores[0].0.reset()
            let skipTime = time(Double(round) * 10 + 5)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let store = stores[index].0
                do {
                    if index == 0 {
                        try store.apply(.next, at: time(Double(round) * 10))
                        try store.apply(.next, at: time(Double(round) * 10 + 1))
                    } else {
                        try store.apply(.next, at: time(Double(round) * 10 + 2))
                        try store.apply(.skip, at: skipTime)
                    }
                } catch {
                    failures.add("round \(round), thread \(index): \(error)")
                }
            }
            let state = try makeStore().0.state()
            XCTAssertEqual(state.flow.currentPage, 4, "round \(round)")
            XCTAssertTrue(state.isCompleted, "round \(round)")
            XCTAssertEqual(state.completedAt, skipTime, "round \(round)")
        }
        XCTAssertEqual(failures.all, [])
        let rows = try stores[0].1.queryFirst("SELECT count(*), min(id), max(id) FROM onboarding_state") {
            [$0.int(0), $0.int(1), $0.int(2)]
        }
        XCTAssertEqual(rows, [1, 1, 1])
        XCTAssertEqual(try stores[0].1.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
    }
}

/// Errors met on worker threads, collected for the test to check afterwards.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
