import Foundation
import TestSupport
import XCTest

/// `memoapp doctor` on a damaged database: each kind of damage is made with
/// the tools a user has (truncate, garbage, sqlite3 with foreign keys off)
/// and must be found; a database that cannot be opened at all exits 74.
final class DoctorDatabaseEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    /// A home with some rows in every table, closed cleanly (no -wal left).
    private func makeHomeWithData() {
        app.onboard()
        for index in 1...10 {
            XCTAssertEqual(app.run("todo", "add", "할 일 \(index) " + String(repeating: "x", count: 1500),
                                   "--tag", "t\(index % 3)").status, 0)
        }
        XCTAssertEqual(app.run("memo", "add", "a memo", "--tag", "m").status, 0)
    }

    private func assertUnusable(_ outcome: DoctorOutcome, _ expected: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(outcome.status, 74, "\(outcome.document)", file: file, line: line)
        XCTAssertEqual(outcome.status(of: "database"), "problem", file: file, line: line)
        let message = outcome.problems(of: "database").first?.message ?? ""
        XCTAssertTrue(message.contains(expected), message, file: file, line: line)
        for dependent in ["integrity", "foreign_keys", "migrations", "schema"] {
            XCTAssertEqual(outcome.status(of: dependent), "skipped", dependent, file: file, line: line)
        }
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func testDatabaseTruncatedInsideItsHeaderExits74() throws {
        makeHomeWithData()
        try FileHandle(forUpdating: URL(fileURLWithPath: app.databasePath)).truncate(atOffset: 50)
        assertUnusable(app.doctor(), "not a SQLite file")
    }

    func testDatabaseTruncatedToHalfExits74() throws {
        makeHomeWithData()
        let size = try XCTUnwrap(bytes(app.databasePath)).count
        try FileHandle(forUpdating: URL(fileURLWithPath: app.databasePath)).truncate(atOffset: UInt64(size / 2))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 74, "\(outcome.document)")
        XCTAssertTrue(outcome.problems(of: "database").first?.message.contains("SQLITE_CORRUPT") ?? false,
                      "\(outcome.problems(of: "database"))")
    }

    func testDatabaseCutShortByOneByteIsFoundThoughSQLiteReadsIt() throws {
        makeHomeWithData()
        let size = try XCTUnwrap(bytes(app.databasePath)).count
        try FileHandle(forUpdating: URL(fileURLWithPath: app.databasePath)).truncate(atOffset: UInt64(size - 1))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1, "\(outcome.document)")
        XCTAssertEqual(outcome.failingChecks, ["integrity"])
        XCTAssertTrue(outcome.problems(of: "integrity").first?.message.contains("cut short: \(size - 1) bytes") ?? false,
                      "\(outcome.problems(of: "integrity"))")
    }

    func testDatabaseOfOneByteExits74AndIsNotWrittenOver() throws {
        makeHomeWithData()
        try Data("S".utf8).write(to: URL(fileURLWithPath: app.databasePath))
        assertUnusable(app.doctor(), "not a SQLite file")
        let listed = app.run("todo", "list")
        XCTAssertEqual(listed.status, 74, listed.stderr)
        XCTAssertTrue(listed.stderr.contains("run 'memoapp doctor'"), listed.stderr)
        XCTAssertEqual(bytes(app.databasePath), Data("S".utf8))
    }

    func testUnknownSchemaFormatExits74() throws {
        makeHomeWithData()
        try overwrite(app.databasePath, at: 44, count: 4, with: 9)
        assertUnusable(app.doctor(), "damaged beyond opening")
        let listed = app.run("todo", "list")
        XCTAssertEqual(listed.status, 74, listed.stderr)
        XCTAssertTrue(listed.stderr.contains("unsupported file format"), listed.stderr)
    }

    func testGarbageDatabaseExits74AndIsLeftAsItWas() throws {
        makeHomeWithData()
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: app.databasePath))
        assertUnusable(app.doctor(), "not a SQLite file")
        XCTAssertEqual(bytes(app.databasePath), garbage)
        XCTAssertEqual(app.run("doctor").status, 74)
    }

    func testAnotherProgramsDatabaseExits74AndIsLeftAsItWas() throws {
        try FileManager.default.createDirectory(atPath: app.home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        sqlite3(app.databasePath, "PRAGMA application_id = 42; CREATE TABLE photos (id INTEGER);")
        try setMode(app.databasePath, 0o600)
        let before = bytes(app.databasePath)
        assertUnusable(app.doctor(), "another program")
        XCTAssertEqual(bytes(app.databasePath), before)
    }

    func testNewerMemoappDatabaseExits74() {
        makeHomeWithData()
        // As a newer memoapp leaves it: one more step, and its own mark in the header.
        sqlite3(app.databasePath, "INSERT INTO schema_migrations (name) VALUES ('zz.1-from-the-future'); PRAGMA user_version = 1")
        let outcome = app.doctor()
        assertUnusable(outcome, "newer memoapp")
        XCTAssertTrue(outcome.problems(of: "database").first?.message.contains("zz.1-from-the-future") ?? false)
    }

    func testEmptyDatabaseFileIsReportedAndLeftEmpty() throws {
        try FileManager.default.createDirectory(atPath: app.home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: app.databasePath, contents: nil, attributes: [.posixPermissions: 0o600])
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["database"])
        XCTAssertTrue(outcome.problems(of: "database").first?.message.contains("empty") ?? false)
        XCTAssertEqual(bytes(app.databasePath)?.count, 0, "doctor set the database up")
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testMissingDatabaseInAnExistingHomeIsReported() throws {
        makeHomeWithData()
        try FileManager.default.removeItem(atPath: app.databasePath)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["database"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.databasePath), "doctor made a database")
    }

    func testDamagedTablePageFailsTheIntegrityCheck() throws {
        makeHomeWithData()
        let pageSize = try XCTUnwrap(UInt64(sqlite3(app.databasePath, "PRAGMA page_size")))
        let root = try XCTUnwrap(UInt64(sqlite3(app.databasePath, "SELECT rootpage FROM sqlite_master WHERE name = 'todos'")))
        // The first bytes of the table's root page: its b-tree page header.
        try overwrite(app.databasePath, at: (root - 1) * pageSize, count: 64)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1, "\(outcome.document)")
        XCTAssertEqual(outcome.status(of: "database"), "ok")
        XCTAssertEqual(outcome.status(of: "integrity"), "problem")
        XCTAssertTrue(outcome.problems(of: "integrity").first?.fix.contains(".recover") ?? false)
    }

    func testDamagedIndexIsFoundByTheIntegrityCheck() throws {
        makeHomeWithData()
        // An index entry that no longer matches its row: the index is one
        // SQLite keeps itself, so only writable_schema tricks or a bad disk do this.
        sqlite3(app.databasePath, """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE INDEX todos_by_due ON todos (title)' WHERE name = 'todos_by_due';
            """)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1, "\(outcome.document)")
        // The schema check sees the changed definition too.
        XCTAssertEqual(outcome.failingChecks, ["integrity", "schema"])
        XCTAssertTrue(outcome.problems(of: "integrity").first?.message.contains("todos_by_due") ?? false,
                      "\(outcome.problems(of: "integrity"))")
    }

    func testATriggerPlantedInTheLiveDatabaseIsReportedWithHowToRemoveIt() throws {
        makeHomeWithData()
        sqlite3(app.databasePath, "CREATE TRIGGER evil AFTER INSERT ON todos BEGIN DELETE FROM memos; END")
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1, "\(outcome.document)")
        XCTAssertEqual(outcome.failingChecks, ["schema"], "integrity_check alone sees nothing")
        let problem = outcome.problems(of: "schema").first
        XCTAssertEqual(problem?.message, "trigger \"evil\" on todos is not one memoapp makes")
        XCTAssertTrue(problem?.fix.contains("DROP TRIGGER \"evil\"") ?? false, problem?.fix ?? "")
        sqlite3(app.databasePath, "DROP TRIGGER evil")
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testForeignKeyViolationIsReportedWithTheRowsToRemove() throws {
        makeHomeWithData()
        memoappSQL(app.databasePath, "PRAGMA foreign_keys = OFF; DELETE FROM todos WHERE id IN (1, 4);")
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["foreign_keys"])
        let problem = try XCTUnwrap(outcome.problems(of: "foreign_keys").first)
        XCTAssertTrue(problem.message.hasPrefix("2 rows of todo_tags point at todos rows"), problem.message)
        // The fix is a command the user can run as it is.
        let sql = try XCTUnwrap(problem.fix.components(separatedBy: "\"").dropFirst().first)
        XCTAssertEqual(sql, "DELETE FROM todo_tags WHERE todo_id NOT IN (SELECT id FROM todos)")
        sqlite3(app.databasePath, sql)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testMissingMigrationIsReportedAndTheNextCommandAppliesIt() {
        makeHomeWithData()
        sqlite3(app.databasePath, """
            DROP TABLE timer_laps; DROP TABLE timer_spans; DROP TABLE timers;
            DELETE FROM schema_migrations WHERE name LIKE 'timers.%';
            PRAGMA user_version = 0;
            """)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["migrations"])
        XCTAssertTrue(outcome.problems(of: "migrations").first?.message.contains("timers.1-create") ?? false)
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        XCTAssertEqual(app.doctor().status, 0)
    }
}
