import SQLite
import XCTest

final class SQLiteErrorTests: SQLiteTestCase {
    func testDescriptionNamesTheCodeTheMessageAndTheSQL() {
        let error = SQLiteError(code: 2067, message: "UNIQUE constraint failed: t.x", sql: "INSERT INTO t VALUES (?)")
        XCTAssertEqual(error.description,
                       "SQLITE_CONSTRAINT (2067): UNIQUE constraint failed: t.x — while running: INSERT INTO t VALUES (?)")
    }

    func testDescriptionWithoutSQLLeavesItOut() {
        let error = SQLiteError(code: 5, message: "database is locked")
        XCTAssertEqual(error.description, "SQLITE_BUSY (5): database is locked")
        XCTAssertNil(error.sql)
    }

    func testPrimaryCodeIsTheLowByteOfTheExtendedOne() {
        let error = SQLiteError(code: 2067, message: "")
        XCTAssertEqual(error.extendedCode, 2067)
        XCTAssertEqual(error.code, ResultCode.constraint)
        XCTAssertEqual(SQLiteError(code: 261, message: "").codeName, "SQLITE_BUSY", "SQLITE_BUSY_RECOVERY")
    }

    func testEveryPrimaryCodeHasSQLitesName() {
        let names: [Int32: String] = [
            1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
            6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR",
            11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
            15: "SQLITE_PROTOCOL", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
            20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 25: "SQLITE_RANGE",
            26: "SQLITE_NOTADB",
        ]
        for (code, name) in names {
            XCTAssertEqual(SQLiteError(code: code, message: "").codeName, name)
        }
    }

    func testAnUnnamedCodeStillGetsAName() {
        XCTAssertEqual(SQLiteError(code: 16, message: "").codeName, "SQLITE_16")
    }

    func testTroubleWithTheFileTheDiskOrTheLockIsAStorageFailure() {
        // BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB, PERM, and an extended IOERR.
        for code: Int32 in [5, 6, 8, 10, 11, 13, 14, 26, 3, 266] {
            XCTAssertEqual(SQLiteError(code: code, message: "").kind, .storage, "code \(code)")
        }
    }

    func testMisusesOfSQLAreInternalFailures() {
        // ERROR, INTERNAL, SCHEMA, TOOBIG, CONSTRAINT, MISMATCH, MISUSE, RANGE, and UNIQUE.
        for code: Int32 in [1, 2, 17, 18, 19, 20, 21, 25, 2067] {
            XCTAssertEqual(SQLiteError(code: code, message: "").kind, .internalFailure, "code \(code)")
        }
    }

    func testARealFailureCarriesSQLitesExtendedCodeMessageAndStatement() throws {
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE t (x UNIQUE)")
        try connection.execute("INSERT INTO t VALUES (?)", 1)
        let error = assertThrowsSQLiteError(try connection.execute("INSERT INTO t VALUES (?)", 1))
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintUnique)
        XCTAssertEqual(error?.message, "UNIQUE constraint failed: t.x")
        XCTAssertEqual(error?.sql, "INSERT INTO t VALUES (?)")
        let description = error?.description ?? ""
        for part in ["SQLITE_CONSTRAINT", "UNIQUE constraint failed: t.x", "INSERT INTO t VALUES (?)"] {
            XCTAssertTrue(description.contains(part), "\(part) missing from \(description)")
        }
    }
}
