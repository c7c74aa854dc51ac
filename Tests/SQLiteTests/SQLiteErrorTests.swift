import Glibc
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
            XCTAssertTrue(SQLiteError(code: code, message: "").isStorageFailure, "code \(code)")
        }
    }

    func testMisusesOfSQLAreNotStorageFailures() {
        // ERROR, INTERNAL, SCHEMA, TOOBIG, CONSTRAINT, MISMATCH, MISUSE, RANGE, and UNIQUE.
        for code: Int32 in [1, 2, 17, 18, 19, 20, 21, 25, 2067] {
            XCTAssertFalse(SQLiteError(code: code, message: "").isStorageFailure, "code \(code)")
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

    func testTheSystemsReasonNamesTheCauseOfAnIOError() {
        // SQLITE_IOERR_SHMSIZE: a full disk met while sizing the -shm file.
        let full = SQLiteError(code: 4874, message: "disk I/O error", systemErrorNumber: ENOSPC)
        XCTAssertTrue(full.isDiskFull)
        XCTAssertFalse(full.isReadOnly)
        XCTAssertEqual(full.systemReason, "No space left on device")
        XCTAssertEqual(full.description, "SQLITE_IOERR (4874): disk I/O error (No space left on device)")
        XCTAssertTrue(full.isStorageFailure)
        XCTAssertTrue(SQLiteError(code: 13, message: "database or disk is full").isDiskFull)
        XCTAssertTrue(SQLiteError(code: 10, message: "", systemErrorNumber: EROFS).isReadOnly)
        XCTAssertTrue(SQLiteError(code: 8, message: "attempt to write a readonly database").isReadOnly)
        XCTAssertTrue(SQLiteError(code: ResultCode.corrupt, message: "").isCorrupt)
        XCTAssertTrue(SQLiteError(code: ResultCode.notADatabase, message: "").isCorrupt)
        let plain = SQLiteError(code: ResultCode.busy, message: "database is locked")
        XCTAssertNil(plain.systemReason)
        XCTAssertFalse(plain.isDiskFull || plain.isReadOnly || plain.isCorrupt)
    }

    func testAFailedOpenCarriesTheSystemsErrno() {
        let error = assertThrowsSQLiteError(try Connection(path: directory.appending("no-such-folder/memoapp.db")))
        XCTAssertEqual(error?.code, ResultCode.cantOpen)
        XCTAssertEqual(error?.systemErrorNumber, ENOENT)
        XCTAssertTrue(error?.description.contains("No such file or directory") ?? false, "\(String(describing: error))")
    }

    func testAFailureThatIsNotAboutFilesCarriesNoErrno() throws {
        let connection = try makeConnection()
        let error = assertThrowsSQLiteError(try connection.execute("SELECT * FROM missing_table"))
        XCTAssertEqual(error?.systemErrorNumber, 0)
    }
}
