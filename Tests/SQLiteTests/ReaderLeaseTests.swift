import Foundation
import SQLite
import TestSupport
import XCTest

/// A reader held across several reads of one thread: one snapshot for all
/// of them, given back to the pool at its end.
final class ReaderLeaseTests: SQLiteTestCase {
    private func makePool(maximumReaderCount: Int = 2) throws -> DatabasePool {
        let pool = try DatabasePool(path: databasePath, configuration: .memoappDatabase,
                                    maximumReaderCount: maximumReaderCount)
        try pool.write { db in
            try db.executeScript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL); INSERT INTO notes VALUES (1, 'one');")
        }
        return pool
    }

    private static func count(_ db: Connection) throws -> Int {
        try db.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } ?? -1
    }

    /// Commits a row from another thread (this one holds the lease, and the
    /// pool refuses its other calls here meanwhile).
    private func insertElsewhere(_ pool: DatabasePool, id: Int) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? pool.write { db in try db.execute("INSERT INTO notes VALUES (?, 'more')", id) }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    }

    func testEveryReadOfALeaseSeesTheSnapshotItBeganWith() throws {
        let pool = try makePool()
        let lease = try pool.leaseReader()
        XCTAssertEqual(try lease.read(ReaderLeaseTests.count), 1)
        insertElsewhere(pool, id: 2)
        XCTAssertEqual(try lease.read(ReaderLeaseTests.count), 1, "a commit after the lease began is not in its snapshot")
        let first = try lease.read { ObjectIdentifier($0) }
        XCTAssertEqual(try lease.read { ObjectIdentifier($0) }, first, "one reader for every read")
        XCTAssertTrue(try lease.read { $0.isInsideTransaction })
        lease.end()
        XCTAssertFalse(lease.isHeld)
        XCTAssertEqual(try pool.read(ReaderLeaseTests.count), 2, "after the lease, reads see the commit")
    }

    func testTheSnapshotIsTakenWhenTheLeaseBeginsNotAtItsFirstRead() throws {
        let pool = try makePool()
        let lease = try pool.leaseReader()
        insertElsewhere(pool, id: 2)
        XCTAssertEqual(try lease.read(ReaderLeaseTests.count), 1)
        lease.end()
    }

    func testAnEndedLeaseGivesItsReaderBackOutOfTransaction() throws {
        let pool = try makePool(maximumReaderCount: 1)
        let lease = try pool.leaseReader()
        let leased = try lease.read { ObjectIdentifier($0) }
        lease.end()
        lease.end()  // a second end does nothing
        XCTAssertEqual(pool.readerCount, 1)
        XCTAssertEqual(try pool.read { ObjectIdentifier($0) }, leased, "the only reader came back to the pool")
        XCTAssertEqual(try pool.read { $0.isInsideTransaction }, true, "a read's own transaction, not the lease's")
        let again = try pool.leaseReader()
        insertElsewhere(pool, id: 2)
        XCTAssertEqual(try again.read(ReaderLeaseTests.count), 1)
        again.end()
        XCTAssertEqual(try pool.read(ReaderLeaseTests.count), 2)
    }

    func testAFailedReadEndsTheLeaseAndTheReaderGoesBack() throws {
        let pool = try makePool(maximumReaderCount: 1)
        let lease = try pool.leaseReader()
        XCTAssertThrowsError(try lease.read { try $0.execute("SELECT * FROM missing") })
        XCTAssertFalse(lease.isHeld)
        XCTAssertEqual(try pool.read(ReaderLeaseTests.count), 1, "the one reader is free again")
    }

    func testALeaseIsReadOnly() throws {
        let pool = try makePool()
        let lease = try pool.leaseReader()
        XCTAssertThrowsError(try lease.read { try $0.execute("INSERT INTO notes VALUES (3, 'no')") })
        XCTAssertEqual(try pool.read(ReaderLeaseTests.count), 1)
    }

    func testClosingWaitsForAHeldLease() throws {
        let pool = try makePool()
        let lease = try pool.leaseReader()
        let closed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pool.close()
            closed.signal()
        }
        XCTAssertEqual(closed.wait(timeout: .now() + 0.2), .timedOut, "close returned while a lease held its reader")
        lease.end()
        XCTAssertEqual(closed.wait(timeout: .now() + 30), .success)
    }
}
