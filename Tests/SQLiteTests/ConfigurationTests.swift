import Foundation
import SQLite
import XCTest

/// What each `Configuration` setting does to a connection opened with it.
final class ConfigurationTests: SQLiteTestCase {
    private func open(_ configuration: Configuration, at path: String? = nil) throws -> Connection {
        try Connection(path: path ?? databasePath, configuration: configuration)
    }

    private func pragma(_ name: String, _ connection: Connection) throws -> String? {
        try connection.queryFirst("PRAGMA \(name)") { $0.string(0) }
    }

    // MARK: Defaults

    func testTheDefaultIsWALForeignKeysFullSyncAndFiveSeconds() throws {
        let connection = try open(Configuration())
        XCTAssertEqual(try pragma("journal_mode", connection), "wal")
        XCTAssertEqual(try pragma("foreign_keys", connection), "1")
        XCTAssertEqual(try pragma("synchronous", connection), "2", "FULL")
        XCTAssertEqual(try pragma("busy_timeout", connection), "5000")
        XCTAssertFalse(connection.configuration.isReadOnly)
    }

    func testTheDefaultOpensAnotherProgramsDatabaseAndLeavesItsMarkAlone() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0x1234_5678)
        let connection = try open(Configuration())
        XCTAssertEqual(try connection.query("SELECT name FROM contacts") { $0.string(0) }, ["Kim"])
        XCTAssertEqual(try connection.applicationID, 0x1234_5678)
    }

    func testTheDefaultWritesNoMarkIntoANewDatabase() throws {
        _ = try open(Configuration())
        let header = try XCTUnwrap(fileBytes(databasePath))
        XCTAssertEqual(Array(header[68..<72]), [0, 0, 0, 0])
    }

    func testTheDefaultRefusesToWriteOverAFileThatIsNotSQLite() throws {
        for content in [Data("S".utf8), Data("x\n".utf8)] {
            XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: content))
            let error = assertThrowsSQLiteError(try open(Configuration()))
            XCTAssertEqual(error?.code, ResultCode.notADatabase)
            XCTAssertEqual(error?.isOpeningFailure, true)
            XCTAssertEqual(fileBytes(databasePath), content, "the file was written over")
        }
    }

    // MARK: Pragmas

    func testEachPragmaIsTheOneAskedFor() throws {
        let connection = try open(Configuration(busyTimeoutMilliseconds: 250, foreignKeysEnabled: false,
                                                synchronous: .normal, journalMode: .truncate))
        XCTAssertEqual(try pragma("busy_timeout", connection), "250")
        XCTAssertEqual(try pragma("foreign_keys", connection), "0")
        XCTAssertEqual(try pragma("synchronous", connection), "1", "NORMAL")
        XCTAssertEqual(try pragma("journal_mode", connection), "truncate")
    }

    func testForeignKeysOffLetsARowPointNowhere() throws {
        let connection = try open(Configuration(foreignKeysEnabled: false))
        try connection.executeScript("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER REFERENCES parent (id));
            """)
        try connection.execute("INSERT INTO child VALUES (?)", 42)
        XCTAssertEqual(try count("child", in: connection), 1)
    }

    func testNoJournalModeKeepsTheFilesOwn() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0)  // left in DELETE mode
        let connection = try open(Configuration(journalMode: nil))
        XCTAssertEqual(try pragma("journal_mode", connection), "delete")
        XCTAssertFalse(fileExists(databasePath + "-wal"))
    }

    func testAnInMemoryDatabaseOpensWithoutAJournalMode() throws {
        let connection = try open(Configuration(journalMode: nil), at: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        XCTAssertEqual(try count("t", in: connection), 0)
    }

    // MARK: The application id and its wording

    func testTheApplicationIDIsWrittenIntoANewDatabase() throws {
        _ = try open(Configuration(applicationID: 0x0102_0304))
        let header = try XCTUnwrap(fileBytes(databasePath))
        XCTAssertEqual(Array(header[68..<72]), [1, 2, 3, 4])
    }

    func testARefusalNamesTheProductGiven() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 7)
        let error = assertThrowsSQLiteError(try open(Configuration(applicationID: 9, productName: "Notebook")))
        XCTAssertEqual(error?.code, ResultCode.notADatabase)
        XCTAssertTrue(error?.message.contains("is not a Notebook database (application_id 7)") ?? false,
                      "\(String(describing: error))")
    }

    func testARefusalWithoutAProductNameNamesNoProgram() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 7)
        let error = assertThrowsSQLiteError(try open(Configuration(applicationID: 9)))
        XCTAssertTrue(error?.message.contains("is not this application's database (application_id 7)") ?? false,
                      "\(String(describing: error))")
        XCTAssertFalse(error?.message.replacingOccurrences(of: databasePath, with: "").contains("memoapp") ?? true)
    }

    func testAnEmptyDatabaseIsRefusedWhenItMayNotBeClaimed() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: Data()))
        let configuration = Configuration(applicationID: 9, claimsEmptyDatabase: false, productName: "Notebook")
        let error = assertThrowsSQLiteError(try open(configuration))
        XCTAssertEqual(error?.code, ResultCode.notADatabase)
        XCTAssertEqual(fileBytes(databasePath), Data(), "the empty file stays empty")
        XCTAssertFalse(fileExists(databasePath + "-wal"))
    }

    func testAMissingDatabaseIsNotCreatedWhenItMayNotBeClaimed() throws {
        let error = assertThrowsSQLiteError(try open(Configuration(applicationID: 9, claimsEmptyDatabase: false)))
        XCTAssertEqual(error?.code, ResultCode.cantOpen)
        XCTAssertFalse(fileExists(databasePath))
    }

    func testADatabaseAlreadyMarkedOpensWhenEmptyOnesMayNotBeClaimed() throws {
        _ = try open(Configuration(applicationID: 9))
        let connection = try open(Configuration(applicationID: 9, claimsEmptyDatabase: false))
        XCTAssertEqual(try connection.applicationID, 9)
    }

    // MARK: Read-only

    func testReadOnlyRefusesAnotherProgramsDatabaseWithoutWriting() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 7)
        let before = try XCTUnwrap(fileBytes(databasePath))
        let error = assertThrowsSQLiteError(
            try open(Configuration(applicationID: 9, isReadOnly: true, productName: "Notebook")))
        XCTAssertEqual(error?.code, ResultCode.notADatabase)
        XCTAssertEqual(error?.isOpeningFailure, true)
        XCTAssertEqual(fileBytes(databasePath), before)
    }

    func testReadOnlyNeverClaimsAnEmptyDatabase() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: Data()))
        assertThrowsSQLiteError(try open(Configuration(applicationID: 9, isReadOnly: true)))
        XCTAssertEqual(fileBytes(databasePath), Data())
    }

    func testReadOnlyReadsAMarkedDatabaseButCannotWriteIt() throws {
        do {
            let writer = try open(Configuration(journalMode: .delete, applicationID: 9))
            try writer.executeScript("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        }
        let reader = try open(Configuration(applicationID: 9).readingOnly)
        XCTAssertTrue(reader.configuration.isReadOnly)
        XCTAssertEqual(try count("t", in: reader), 1)
        XCTAssertEqual(assertThrowsSQLiteError(try reader.execute("INSERT INTO t VALUES (2)"))?.code, 8, "SQLITE_READONLY")
    }

    func testTheConnectionKeepsTheConfigurationItWasOpenedWith() throws {
        let configuration = Configuration(busyTimeoutMilliseconds: 77, applicationID: 3, productName: "Kept")
        let connection = try open(configuration)
        XCTAssertEqual(connection.configuration.busyTimeoutMilliseconds, 77)
        XCTAssertEqual(connection.configuration.applicationID, 3)
        XCTAssertEqual(connection.configuration.productName, "Kept")
    }
}
