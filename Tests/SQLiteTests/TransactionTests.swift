import Foundation
import SQLite
import XCTest

final class TransactionTests: SQLiteTestCase {
    private struct Abort: Error, Equatable {
        let reason: String
    }

    private var connection: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        connection = try makeConnection()
        try connection.execute("CREATE TABLE t (x TEXT UNIQUE)")
    }

    override func tearDown() {
        connection = nil
        super.tearDown()
    }

    private func rows(in connection: Connection) throws -> [String] {
        try connection.query("SELECT x FROM t ORDER BY x") { $0.string(0) }
    }

    // MARK: Commit and rollback

    func testWriteTransactionCommitsWhenTheBodyReturns() throws {
        let result = try connection.writeTransaction { () -> Int in
            try connection.execute("INSERT INTO t VALUES (?)", "a")
            try connection.execute("INSERT INTO t VALUES (?)", "b")
            return 7
        }
        XCTAssertEqual(result, 7)
        let other = try makeConnection()
        XCTAssertEqual(try other.query("SELECT x FROM t ORDER BY x") { $0.string(0) }, ["a", "b"])
    }

    func testWriteTransactionRollsBackWhenTheBodyThrows() throws {
        XCTAssertThrowsError(try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "a")
            throw Abort(reason: "changed my mind")
        }) { error in
            XCTAssertEqual(error as? Abort, Abort(reason: "changed my mind"), "the body's own error comes out")
        }
        XCTAssertEqual(try count("t", in: connection), 0)
        XCTAssertEqual(try count("t", in: try makeConnection()), 0)
    }

    func testASQLiteFailureInsideRollsBackTheEarlierWrites() throws {
        try connection.execute("INSERT INTO t VALUES (?)", "taken")
        let error = assertThrowsSQLiteError(try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "new")
            try connection.execute("INSERT INTO t VALUES (?)", "taken")
        })
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintUnique)
        XCTAssertEqual(try connection.query("SELECT x FROM t") { $0.string(0) }, ["taken"])
    }

    func testTheConnectionIsUsableAfterARollback() throws {
        XCTAssertThrowsError(try connection.writeTransaction { throw Abort(reason: "first") })
        try connection.writeTransaction { try connection.execute("INSERT INTO t VALUES (?)", "after") }
        XCTAssertEqual(try count("t", in: try makeConnection()), 1)
        XCTAssertThrowsError(try connection.readTransaction { throw Abort(reason: "read") })
        XCTAssertEqual(try connection.readTransaction { try count("t", in: connection) }, 1)
    }

    func testReadTransactionSeesOneSnapshot() throws {
        try connection.execute("INSERT INTO t VALUES (?)", "before")
        let writer = try makeConnection()
        let counts = try connection.readTransaction { () -> (Int, Int) in
            let first = try count("t", in: connection)
            try writer.execute("INSERT INTO t VALUES (?)", "during")
            return (first, try count("t", in: connection))
        }
        XCTAssertEqual(counts.0, 1)
        XCTAssertEqual(counts.1, 1, "a write committed meanwhile stays invisible inside the read transaction")
        XCTAssertEqual(try count("t", in: connection), 2)
    }

    // MARK: Nesting (savepoints)

    func testAWriteTransactionInsideAnotherCommitsWithIt() throws {
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "outer")
            let inner = try connection.writeTransaction { () -> Int in
                try connection.execute("INSERT INTO t VALUES (?)", "inner")
                return 3
            }
            XCTAssertEqual(inner, 3)
            XCTAssertEqual(try count("t", in: try makeConnection()), 0, "nothing is visible before the outer commit")
        }
        XCTAssertEqual(try rows(in: try makeConnection()), ["inner", "outer"])
    }

    func testACaughtInnerFailureRollsBackTheInnerPartOnly() throws {
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "before")
            XCTAssertThrowsError(try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (?)", "inner")
                throw Abort(reason: "inner")
            }) { XCTAssertEqual($0 as? Abort, Abort(reason: "inner")) }
            XCTAssertTrue(connection.isInsideTransaction, "the outer transaction goes on")
            try connection.execute("INSERT INTO t VALUES (?)", "after")
        }
        XCTAssertEqual(try rows(in: try makeConnection()), ["after", "before"])
    }

    func testAnInnerSQLiteFailureCaughtLeavesTheOuterWritesIntact() throws {
        try connection.execute("INSERT INTO t VALUES (?)", "taken")
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "outer")
            let error = assertThrowsSQLiteError(try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (?)", "inner")
                try connection.execute("INSERT INTO t VALUES (?)", "taken")
            })
            XCTAssertEqual(error?.extendedCode, ResultCode.constraintUnique)
        }
        XCTAssertEqual(try rows(in: connection), ["outer", "taken"])
    }

    func testAnInnerFailureNotCaughtRollsBackEverything() throws {
        XCTAssertThrowsError(try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "outer")
            try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (?)", "inner")
                throw Abort(reason: "inner")
            }
        }) { XCTAssertEqual($0 as? Abort, Abort(reason: "inner")) }
        XCTAssertEqual(try count("t", in: connection), 0)
        XCTAssertFalse(connection.isInsideTransaction)
    }

    func testThreeLevelsRollBackOnlyTheLevelThatFailed() throws {
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "1")
            try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (?)", "2")
                try? connection.writeTransaction {
                    try connection.execute("INSERT INTO t VALUES (?)", "3")
                    throw Abort(reason: "third")
                }
                try connection.execute("INSERT INTO t VALUES (?)", "2b")
            }
            try? connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (?)", "4")
                try connection.writeTransaction { try connection.execute("INSERT INTO t VALUES (?)", "5") }
                throw Abort(reason: "fourth, with the fifth inside")
            }
        }
        XCTAssertEqual(try rows(in: connection), ["1", "2", "2b"])
    }

    func testAReadTransactionInsideAWriteSeesThePendingWrites() throws {
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "pending")
            XCTAssertEqual(try connection.readTransaction { try count("t", in: connection) }, 1)
        }
    }

    func testAReadTransactionInsideAnotherOnAReadOnlyConnectionKeepsTheSnapshotAndDropsAFailedBodysActions() throws {
        try connection.execute("INSERT INTO t VALUES (?)", "before")
        let reader = try Connection(readingOnly: databasePath)
        let writer = try makeConnection()
        var ran: [String] = []
        let counts = try reader.readTransaction { () -> (Int, Int) in
            let first = try count("t", in: reader)
            try writer.execute("INSERT INTO t VALUES (?)", "during")
            let inner = try reader.readTransaction {
                try reader.afterCommit { ran.append("kept") }
                return try count("t", in: reader)
            }
            XCTAssertThrowsError(try reader.readTransaction {
                try reader.afterCommit { ran.append("dropped") }
                throw Abort(reason: "inner")
            })
            XCTAssertTrue(reader.isInsideTransaction, "a failed inner read leaves the outer one open")
            return (first, inner)
        }
        XCTAssertEqual(counts.0, 1)
        XCTAssertEqual(counts.1, 1, "the inner read is in the outer one's snapshot")
        XCTAssertEqual(ran, ["kept"])
        XCTAssertEqual(try count("t", in: reader), 2)
    }

    // MARK: SQLite's own transaction state

    func testTheTransactionStateIsSQLites() throws {
        XCTAssertFalse(connection.isInsideTransaction)
        try connection.writeTransaction { XCTAssertTrue(connection.isInsideTransaction) }
        try connection.readTransaction { XCTAssertTrue(connection.isInsideTransaction) }
        XCTAssertFalse(connection.isInsideTransaction)
        try connection.execute("BEGIN")
        XCTAssertTrue(connection.isInsideTransaction, "a transaction begun by hand counts too")
        try connection.writeTransaction { try connection.execute("INSERT INTO t VALUES (?)", "in a savepoint") }
        try connection.execute("ROLLBACK")
        XCTAssertEqual(try count("t", in: connection), 0, "the write was a savepoint of the hand-made transaction")
    }

    func testABodyThatEndsTheTransactionItselfMakesTheCommitFailAndLeavesTheConnectionUsable() throws {
        let error = assertThrowsSQLiteError(try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "rolled back by the body")
            try connection.execute("ROLLBACK")
        })
        XCTAssertTrue(error?.message.contains("no transaction is active") ?? false, "\(String(describing: error))")
        XCTAssertFalse(connection.isInsideTransaction)
        XCTAssertEqual(try count("t", in: connection), 0)
        try connection.writeTransaction { try connection.execute("INSERT INTO t VALUES (?)", "next") }
        XCTAssertEqual(try rows(in: connection), ["next"])
    }

    // MARK: BEGIN IMMEDIATE

    func testASecondWriterIsBusyWhileTheFirstHoldsTheLock() throws {
        let second = try makeConnection(busyTimeoutMilliseconds: 50)
        var secondBodyRan = false
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "first")
            // Even a body that only reads is refused up front: the lock is taken at BEGIN.
            let error = assertThrowsSQLiteError(try second.writeTransaction { secondBodyRan = true })
            XCTAssertEqual(error?.code, ResultCode.busy)
            XCTAssertEqual(error?.codeName, "SQLITE_BUSY")
            XCTAssertEqual(error?.isStorageFailure, true)
        }
        XCTAssertFalse(secondBodyRan)
        try second.writeTransaction { try second.execute("INSERT INTO t VALUES (?)", "second") }
        XCTAssertEqual(try connection.query("SELECT x FROM t ORDER BY rowid") { $0.string(0) }, ["first", "second"])
    }

    func testReadersAreNotBlockedByAWriter() throws {
        try connection.execute("INSERT INTO t VALUES (?)", "committed")
        let reader = try makeConnection(busyTimeoutMilliseconds: 50)
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "pending")
            XCTAssertEqual(try reader.query("SELECT x FROM t") { $0.string(0) }, ["committed"])
        }
    }

    func testASecondWriterWaitsForTheLockAndThenWrites() throws {
        let path = databasePath
        let secondIsStarting = DispatchSemaphore(value: 0)
        let secondIsDone = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES (?)", "first")
            Thread.detachNewThread {
                do {
                    let second = try Connection(path: path)  // default timeout: seconds
                    secondIsStarting.signal()
                    try second.writeTransaction { try second.execute("INSERT INTO t VALUES (?)", "second") }
                    outcome.set(nil)
                } catch {
                    secondIsStarting.signal()
                    outcome.set(error)
                }
                secondIsDone.signal()
            }
            secondIsStarting.wait()
            // Hold the lock a moment so the second writer reaches BEGIN IMMEDIATE while
            // it is held. (If it arrives later it still passes: this asserts no speed.)
            usleep(200_000)
        }
        XCTAssertEqual(secondIsDone.wait(timeout: .now() + 30), .success)
        XCTAssertNil(outcome.error, "the second writer waited instead of failing")
        XCTAssertEqual(try connection.query("SELECT x FROM t ORDER BY rowid") { $0.string(0) }, ["first", "second"])
    }
}

/// The error a background thread met, read by the test after it finishes.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    private var isSet = false

    func set(_ error: Error?) {
        lock.lock()
        defer { lock.unlock() }
        stored = error
        isSet = true
    }

    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return isSet ? stored : Outcome.NotFinished()
    }

    struct NotFinished: Error {}
}
