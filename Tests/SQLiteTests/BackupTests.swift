import Foundation
import SQLite
import XCTest

/// `backup(to:)`, `backup(into:)`, `vacuum(into:)` and read-only opening.
final class BackupTests: SQLiteTestCase {
    private func makeSource(rows: Int = 3) throws -> Connection {
        let connection = try makeConnection()
        try connection.executeScript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL); PRAGMA user_version = 7;")
        try connection.writeTransaction {
            for index in 0..<rows { try connection.execute("INSERT INTO notes (text) VALUES (?)", "note \(index)") }
        }
        return connection
    }

    private func mode(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    /// Bytes 18 and 19 of the header: 2 for WAL, 1 for a rollback journal.
    private func fileFormatVersions(_ path: String) throws -> [UInt8] {
        let bytes = try XCTUnwrap(fileBytes(path))
        return [bytes[18], bytes[19]]
    }

    // MARK: backup(to:)

    func testBackupCopiesRowsAndHeaderIntoAPrivateNewFile() throws {
        let source = try makeSource()
        let copyPath = directory.appending("copy.db")
        try source.backup(to: copyPath)
        XCTAssertEqual(mode(of: copyPath), 0o600)
        XCTAssertEqual(try fileFormatVersions(copyPath), [2, 2], "a page-for-page copy keeps the WAL mark")
        let copy = try Connection(path: copyPath)
        XCTAssertEqual(try copy.query("SELECT text FROM notes ORDER BY id") { $0.string(0) }, ["note 0", "note 1", "note 2"])
        XCTAssertEqual(try copy.applicationID, Configuration.memoappDatabase.applicationID)
        XCTAssertEqual(try copy.queryFirst("PRAGMA user_version") { $0.int(0) }, 7)
        XCTAssertEqual(try copy.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
    }

    func testBackupInsideAReadTransactionCopiesThatSnapshotNotLaterCommits() throws {
        let source = try makeSource()
        let writer = try makeConnection()
        let copyPath = directory.appending("copy.db")
        try source.readTransaction {
            XCTAssertEqual(try count("notes", in: source), 3, "the snapshot starts here")
            try writer.execute("INSERT INTO notes (text) VALUES (?)", "after the snapshot")
            try writer.execute("DELETE FROM notes WHERE id = 1")
            try source.backup(to: copyPath)
        }
        XCTAssertEqual(try count("notes", in: writer), 3, "the writer committed both changes")
        let copy = try Connection(path: copyPath)
        XCTAssertEqual(try copy.query("SELECT text FROM notes ORDER BY id") { $0.string(0) }, ["note 0", "note 1", "note 2"])
    }

    func testBackupOutsideATransactionCopiesTheLatestCommit() throws {
        let source = try makeSource()
        let writer = try makeConnection()
        try writer.execute("INSERT INTO notes (text) VALUES (?)", "latest")
        let copyPath = directory.appending("copy.db")
        try source.backup(to: copyPath)
        XCTAssertEqual(try count("notes", in: try Connection(path: copyPath)), 4)
    }

    func testBackupRefusesAnExistingFileAndLeavesItAlone() throws {
        let source = try makeSource()
        let copyPath = directory.appending("copy.db")
        XCTAssertTrue(FileManager.default.createFile(atPath: copyPath, contents: Data("mine".utf8)))
        let error = assertThrowsSQLiteError(try source.backup(to: copyPath))
        XCTAssertEqual(error?.code, ResultCode.cantOpen)
        XCTAssertEqual(error?.systemErrorNumber, EEXIST)
        XCTAssertEqual(fileBytes(copyPath), Data("mine".utf8))
    }

    func testBackupIntoAMissingFolderFailsWithoutLeavingAnything() throws {
        let source = try makeSource()
        let error = assertThrowsSQLiteError(try source.backup(to: directory.appending("absent/copy.db")))
        XCTAssertEqual(error?.systemErrorNumber, ENOENT)
        XCTAssertFalse(fileExists(directory.appending("absent")))
    }

    // MARK: backup(into:)

    func testBackupIntoAnOpenDatabaseReplacesItsContentForEveryConnection() throws {
        let source = try makeSource(rows: 2)
        let targetPath = directory.appending("target.db")
        let target = try Connection(path: targetPath)
        try target.executeScript("CREATE TABLE old (x); INSERT INTO old VALUES (1); PRAGMA user_version = 3;")
        let bystander = try Connection(path: targetPath)
        XCTAssertEqual(try count("old", in: bystander), 1)

        try source.backup(into: target)

        for connection in [target, bystander] {
            XCTAssertFalse(try tableExists("old", in: connection))
            XCTAssertEqual(try count("notes", in: connection), 2)
            XCTAssertEqual(try connection.queryFirst("PRAGMA user_version") { $0.int(0) }, 7)
            XCTAssertEqual(try connection.queryFirst("PRAGMA journal_mode") { $0.string(0) }, "wal")
        }
        XCTAssertEqual(try target.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
    }

    func testBackupIntoADatabaseInATransactionFailsAndChangesNothing() throws {
        let source = try makeSource()
        let target = try Connection(path: directory.appending("target.db"))
        try target.execute("CREATE TABLE old (x)")
        try target.readTransaction {
            _ = try count("old", in: target)
            XCTAssertNotNil(assertThrowsSQLiteError(try source.backup(into: target)))
        }
        XCTAssertTrue(try tableExists("old", in: target))
        XCTAssertFalse(try tableExists("notes", in: target))
    }

    // MARK: vacuum(into:)

    func testVacuumMakesACompactSelfContainedCopyWithTheSameHeaderValues() throws {
        let source = try makeSource(rows: 2000)
        try source.execute("DELETE FROM notes WHERE id > 10")
        let pagesPath = directory.appending("pages.db")
        let compactPath = directory.appending("compact.db")
        try source.backup(to: pagesPath)
        try source.vacuum(into: compactPath)

        XCTAssertEqual(mode(of: compactPath), 0o600)
        XCTAssertEqual(try fileFormatVersions(compactPath), [1, 1], "rollback-journal mode: one self-contained file")
        let pagesSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: pagesPath)[.size] as? Int)
        let compactSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: compactPath)[.size] as? Int)
        XCTAssertLessThan(compactSize * 3, pagesSize, "free pages are left out")
        let copy = try Connection(readingOnly: compactPath)
        XCTAssertEqual(try count("notes", in: copy), 10)
        XCTAssertEqual(try copy.applicationID, Configuration.memoappDatabase.applicationID)
        XCTAssertEqual(try copy.queryFirst("PRAGMA user_version") { $0.int(0) }, 7)
        XCTAssertEqual(try copy.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
    }

    func testVacuumRefusesToRunInsideATransactionAndLeavesNoFile() throws {
        let source = try makeSource()
        let copyPath = directory.appending("copy.db")
        try source.readTransaction {
            _ = try count("notes", in: source)
            XCTAssertNotNil(assertThrowsSQLiteError(try source.vacuum(into: copyPath)))
        }
        XCTAssertFalse(fileExists(copyPath))
    }

    func testVacuumRefusesAnExistingFile() throws {
        let source = try makeSource()
        let copyPath = directory.appending("copy.db")
        XCTAssertTrue(FileManager.default.createFile(atPath: copyPath, contents: Data()))
        XCTAssertEqual(assertThrowsSQLiteError(try source.vacuum(into: copyPath))?.systemErrorNumber, EEXIST)
    }

    // MARK: Read-only opening

    func testReadOnlyOpeningReadsButNeverWritesOrCreates() throws {
        let source = try makeSource()
        let copyPath = directory.appending("copy.db")
        try source.vacuum(into: copyPath)
        let before = try XCTUnwrap(fileBytes(copyPath))
        let reader = try Connection(readingOnly: copyPath)
        XCTAssertEqual(try count("notes", in: reader), 3)
        let error = assertThrowsSQLiteError(try reader.execute("INSERT INTO notes (text) VALUES (?)", "no"))
        XCTAssertEqual(error?.code, 8, "SQLITE_READONLY")
        XCTAssertEqual(fileBytes(copyPath), before)
        XCTAssertFalse(fileExists(copyPath + "-journal"))
        XCTAssertFalse(fileExists(copyPath + "-wal"))

        let absent = directory.appending("absent.db")
        XCTAssertEqual(assertThrowsSQLiteError(try Connection(readingOnly: absent))?.code, ResultCode.cantOpen)
        XCTAssertFalse(fileExists(absent))
    }

    func testReadOnlyOpeningOfAFileThatIsNotADatabaseIsACorruptOpeningFailure() throws {
        let path = directory.appending("text.db")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 4096)))
        let error = assertThrowsSQLiteError(try Connection(readingOnly: path))
        XCTAssertEqual(error?.isOpeningFailure, true)
        XCTAssertEqual(error?.isCorrupt, true)
    }

    func testApplicationIDReadsTheHeader() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 0x1234_5678)
        XCTAssertEqual(try Connection(readingOnly: databasePath).applicationID, 0x1234_5678)
    }
}
