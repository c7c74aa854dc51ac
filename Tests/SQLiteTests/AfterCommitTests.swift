import Foundation
import SQLite
import XCTest

/// `Connection.afterCommit`: work outside the database that waits for the
/// outermost commit, and never happens when that work's changes roll back.
final class AfterCommitTests: SQLiteTestCase {
    private struct Abort: Error {}

    private var connection: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        connection = try makeConnection()
        try connection.execute("CREATE TABLE t (x TEXT)")
    }

    override func tearDown() {
        connection = nil
        super.tearDown()
    }

    func testAnActionOutsideATransactionRunsAtOnce() throws {
        var ran = false
        try connection.afterCommit { ran = true }
        XCTAssertTrue(ran)
    }

    func testAnActionWaitsForTheOutermostCommit() throws {
        var log: [String] = []
        try connection.writeTransaction {
            try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES ('a')")
                try connection.afterCommit { log.append("inner") }
            }
            XCTAssertEqual(log, [], "a savepoint's release is not the commit")
            try connection.afterCommit { log.append("outer") }
        }
        XCTAssertEqual(log, ["inner", "outer"])
    }

    func testAnActionOfARolledBackTransactionNeverRuns() throws {
        var ran = false
        XCTAssertThrowsError(try connection.writeTransaction {
            try connection.afterCommit { ran = true }
            throw Abort()
        })
        try connection.writeTransaction {}
        XCTAssertFalse(ran)
    }

    func testAnActionOfARolledBackSavepointNeverRunsButTheOthersDo() throws {
        var log: [String] = []
        try connection.writeTransaction {
            try connection.afterCommit { log.append("kept") }
            do {
                try connection.writeTransaction {
                    try connection.afterCommit { log.append("dropped") }
                    throw Abort()
                }
            } catch is Abort {}
        }
        XCTAssertEqual(log, ["kept"])
    }

    func testAFailingActionComesOutAfterEveryActionRan() throws {
        var ran = false
        XCTAssertThrowsError(try connection.writeTransaction {
            try connection.execute("INSERT INTO t VALUES ('a')")
            try connection.afterCommit { throw Abort() }
            try connection.afterCommit { ran = true }
        }) { XCTAssertTrue($0 is Abort) }
        XCTAssertTrue(ran)
        XCTAssertEqual(try connection.query("SELECT x FROM t") { $0.string(0) }, ["a"], "the commit stands")
    }
}
