import Foundation
import SQLite
import XCTest

final class ConnectionTests: SQLiteTestCase {
    // MARK: A new database

    func testNewDatabaseUsesWALForeignKeysBusyTimeoutAndOurApplicationID() throws {
        let connection = try makeConnection()
        XCTAssertEqual(try connection.queryFirst("PRAGMA journal_mode") { $0.string(0) }, "wal")
        XCTAssertEqual(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) }, 1)
        XCTAssertEqual(try connection.queryFirst("PRAGMA busy_timeout") { $0.int(0) }, 5000)
        XCTAssertEqual(try connection.queryFirst("PRAGMA application_id") { $0.int(0) }, 0x4D45_4D4F)
        XCTAssertEqual(try connection.queryFirst("PRAGMA synchronous") { $0.int(0) }, 2, "FULL")
    }

    func testALargerCacheLastsForItsBodyOnlyEvenWhenTheBodyThrows() throws {
        let connection = try makeConnection()
        let cacheSize = { try connection.queryFirst("PRAGMA cache_size") { $0.int(0) } }
        let before = try cacheSize()
        XCTAssertEqual(try connection.withCacheSize(kibibytes: 65536) { try cacheSize() }, -65536)
        XCTAssertEqual(try cacheSize(), before)
        struct Failure: Error {}
        XCTAssertThrowsError(try connection.withCacheSize(kibibytes: 4096) { throw Failure() })
        XCTAssertEqual(try cacheSize(), before)
    }

    func testTemporaryFilesGoToDiskForTheirBodyEvenInsideATransaction() throws {
        let connection = try makeConnection()
        let store = { try connection.queryFirst("PRAGMA temp_store") { $0.int(0) } }
        try connection.execute("CREATE TABLE t (x)")
        try connection.withTemporaryFilesInMemory {
            try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                XCTAssertEqual(try store(), 2, "in memory")
                XCTAssertEqual(try connection.withTemporaryFilesOnDisk { try store() }, 1, "on disk, inside the transaction")
                XCTAssertEqual(try store(), 2, "in memory again")
            }
        }
        XCTAssertEqual(try connection.withTemporaryFilesOnDisk { try store() }, 0, "SQLite's default is left as it is")
    }

    func testBusyTimeoutIsTheOneAskedFor() throws {
        let connection = try makeConnection(busyTimeoutMilliseconds: 123)
        XCTAssertEqual(try connection.queryFirst("PRAGMA busy_timeout") { $0.int(0) }, 123)
    }

    func testApplicationIDIsInTheFileHeader() throws {
        _ = try makeConnection()  // released at once: the header reaches the main file
        let header = try XCTUnwrap(fileBytes(databasePath))
        XCTAssertEqual(String(decoding: header[68..<72], as: UTF8.self), "MEMO")
    }

    func testAnEmptyFileIsClaimedAsANewDatabase() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: Data()))
        let connection = try makeConnection()
        XCTAssertEqual(try connection.queryFirst("PRAGMA application_id") { $0.int(0) }, 0x4D45_4D4F)
        XCTAssertEqual(try connection.queryFirst("PRAGMA journal_mode") { $0.string(0) }, "wal")
    }

    func testForeignKeysAreEnforced() throws {
        let connection = try makeConnection()
        try connection.executeScript("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id));
            """)
        let error = assertThrowsSQLiteError(try connection.execute("INSERT INTO child VALUES (?)", 42))
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintForeignKey)
        XCTAssertEqual(try count("child", in: connection), 0)
    }

    func testDataSurvivesReopening() throws {
        do {
            let connection = try makeConnection()
            try connection.execute("CREATE TABLE t (x TEXT)")
            try connection.execute("INSERT INTO t VALUES (?)", "kept")
        }
        let reopened = try makeConnection()
        XCTAssertEqual(try reopened.query("SELECT x FROM t") { $0.string(0) }, ["kept"])
    }

    // MARK: Databases that are not ours

    func testDatabaseWithAnotherApplicationIDIsRefusedAndLeftUnchanged() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0x1234_5678)
        let before = try XCTUnwrap(fileBytes(databasePath))
        let error = assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(error?.isStorageFailure, true)
        XCTAssertEqual(error?.code, ResultCode.notADatabase)
        XCTAssertTrue(error?.message.contains("not a memoapp database") ?? false, "\(String(describing: error))")
        XCTAssertEqual(fileBytes(databasePath), before)
        XCTAssertFalse(fileExists(databasePath + "-wal"))
    }

    func testDatabaseWithTablesButNoApplicationIDIsRefusedAndLeftUnchanged() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0)
        let before = try XCTUnwrap(fileBytes(databasePath))
        let error = assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(error?.isStorageFailure, true)
        XCTAssertEqual(fileBytes(databasePath), before)
    }

    func testForeignWALDatabaseIsRefusedAndLeftUnchanged() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 7, keepWAL: true)
        let before = try XCTUnwrap(fileBytes(databasePath))
        assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(fileBytes(databasePath), before)
    }

    func testRefusingManyForeignDatabasesInARowIsSafe() throws {
        // Each refusal closes its SQLite handle; doing it many times catches a
        // handle closed twice (freed memory reused by the next open).
        try makeForeignDatabase(at: databasePath, applicationID: 99)
        for _ in 0..<200 {
            assertThrowsSQLiteError(try makeConnection())
        }
        let ours = try Connection(path: directory.appending("ours.db"))
        XCTAssertEqual(try ours.queryFirst("SELECT 1") { $0.int(0) }, 1)
    }

    func testRefusedDatabaseStillOpensWithItsOwnApplicationID() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0x1234_5678)
        assertThrowsSQLiteError(try makeConnection())
        let owner = try Connection(path: databasePath, configuration: Configuration(applicationID: 0x1234_5678))
        XCTAssertEqual(try owner.query("SELECT name FROM contacts") { $0.string(0) }, ["Kim"])
    }

    // MARK: Damaged files

    func testGarbageFileIsAStorageErrorAndLeftUnchanged() throws {
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) })
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: garbage))
        let error = assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(error?.isStorageFailure, true, "\(String(describing: error))")
        XCTAssertEqual(fileBytes(databasePath), garbage)
    }

    func testShortTextFileIsAStorageError() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: Data("hello\n".utf8)))
        let error = assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(error?.isStorageFailure, true, "\(String(describing: error))")
        XCTAssertEqual(fileBytes(databasePath), Data("hello\n".utf8))
    }

    func testTruncatedDatabaseIsAStorageError() throws {
        do {
            let connection = try makeConnection()
            try connection.execute("CREATE TABLE t (x TEXT)")
            try connection.writeTransaction {
                for index in 0..<2000 {
                    try connection.execute("INSERT INTO t VALUES (?)", String(repeating: "memo \(index) ", count: 8))
                }
            }
        }
        let whole = try XCTUnwrap(fileBytes(databasePath))
        XCTAssertGreaterThan(whole.count, 16 * 4096)
        for length in [whole.count / 2, 3 * 4096 + 100, 4096] {
            try whole.prefix(length).write(to: URL(fileURLWithPath: databasePath))
            let error = assertThrowsSQLiteError(try {
                let connection = try makeConnection()
                return try connection.query("SELECT x FROM t") { $0.string(0) }.count
            }(), "truncated to \(length) bytes")
            XCTAssertEqual(error?.isStorageFailure, true, "truncated to \(length): \(String(describing: error))")
        }
    }

    func testAFileTooShortForAPageIsRefusedNotOverwritten() throws {
        // SQLite takes these for empty databases; claiming one would write over it.
        for content in [Data("S".utf8), Data([0]), Data("x\n".utf8)] {
            XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: content))
            let error = assertThrowsSQLiteError(try makeConnection())
            XCTAssertEqual(error?.code, ResultCode.notADatabase, "\(content)")
            XCTAssertEqual(error?.isStorageFailure, true)
            XCTAssertEqual(fileBytes(databasePath), content, "the file was written over")
        }
    }

    func testAnUnknownSchemaFormatIsAStorageErrorNotOurBug() throws {
        do {
            let connection = try makeConnection()
            try connection.execute("CREATE TABLE t (x)")
        }
        var bytes = try XCTUnwrap(fileBytes(databasePath))
        // The schema format number, a 4-byte big-endian integer at offset 44: 1 to 4 are defined.
        bytes.replaceSubrange(44..<48, with: [0, 0, 0, 9])
        try bytes.write(to: URL(fileURLWithPath: databasePath))
        let error = assertThrowsSQLiteError(try makeConnection())
        XCTAssertEqual(error?.code, ResultCode.error, "\(String(describing: error))")
        XCTAssertEqual(error?.isStorageFailure, true)
        XCTAssertTrue(error?.isCorrupt ?? false)
        XCTAssertTrue(error?.isOpeningFailure ?? false)
    }

    func testMissingFolderIsAStorageError() throws {
        let error = assertThrowsSQLiteError(try Connection(path: directory.appending("no/such/folder/x.db")))
        XCTAssertEqual(error?.code, ResultCode.cantOpen)
        XCTAssertEqual(error?.isStorageFailure, true)
    }

    func testAFolderIsNotADatabase() throws {
        let error = assertThrowsSQLiteError(try Connection(path: directory.path))
        XCTAssertEqual(error?.isStorageFailure, true, "\(String(describing: error))")
    }

    // MARK: Running SQL

    func testLastInsertRowIDAndChanges() throws {
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
        try connection.execute("INSERT INTO t (x) VALUES (?)", 10)
        XCTAssertEqual(connection.lastInsertRowID, 1)
        try connection.execute("INSERT INTO t (x) VALUES (?)", 20)
        XCTAssertEqual(connection.lastInsertRowID, 2)
        try connection.execute("UPDATE t SET x = x + 1")
        XCTAssertEqual(connection.changes, 2)
        try connection.execute("DELETE FROM t WHERE x > ?", 100)
        XCTAssertEqual(connection.changes, 0)
    }

    func testQueryFirstIsNilWithoutRows() throws {
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE t (x INTEGER)")
        XCTAssertNil(try connection.queryFirst("SELECT x FROM t") { $0.int(0) })
    }

    func testExecuteScriptRunsEveryStatement() throws {
        let connection = try makeConnection()
        try connection.executeScript("CREATE TABLE a (x); CREATE TABLE b (y); INSERT INTO a VALUES (1);")
        XCTAssertTrue(try tableExists("b", in: connection))
        XCTAssertEqual(try count("a", in: connection), 1)
    }

    func testFailingScriptReportsItsSQL() throws {
        let connection = try makeConnection()
        let script = "CREATE TABLE a (x); CREATE TABEL b (y);"
        let error = assertThrowsSQLiteError(try connection.executeScript(script))
        XCTAssertEqual(error?.code, ResultCode.error)
        XCTAssertEqual(error?.sql, script)
        XCTAssertTrue(error?.message.contains("syntax error") ?? false, "\(String(describing: error))")
    }

    func testSyntaxErrorNamesTheStatement() throws {
        let connection = try makeConnection()
        let error = assertThrowsSQLiteError(try connection.execute("SELEC 1"))
        XCTAssertEqual(error?.sql, "SELEC 1")
        XCTAssertEqual(error?.code, ResultCode.error)
    }

    func testErrorsInTheMapClosurePropagateAndTheStatementIsReusable() throws {
        struct Stop: Error {}
        let connection = try makeConnection()
        try connection.executeScript("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);")
        XCTAssertThrowsError(try connection.query("SELECT x FROM t ORDER BY x") { row -> Int in
            if row.int(0) == 2 { throw Stop() }
            return row.int(0)
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(try connection.query("SELECT x FROM t ORDER BY x") { $0.int(0) }, [1, 2, 3])
    }
}
