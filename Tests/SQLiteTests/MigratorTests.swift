import SQLite
import XCTest

final class MigratorTests: SQLiteTestCase {
    private struct StepFailed: Error {}

    /// A step that creates its own table and notes its name in `log`, so a test
    /// sees both what a step did and how many times it ran.
    private func step(_ name: String) -> Migration {
        Migration(name) { connection in
            let table = name.replacingOccurrences(of: ".", with: "_").replacingOccurrences(of: "-", with: "_")
            try connection.execute("CREATE TABLE \(table) (x)")
            try connection.execute("INSERT INTO log (name) VALUES (?)", name)
        }
    }

    private func migrator(_ batches: [Migration]...) -> Migrator {
        var migrator = Migrator()
        for batch in batches { migrator.register(batch) }
        return migrator
    }

    private func makeLoggedConnection() throws -> Connection {
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE IF NOT EXISTS log (name TEXT NOT NULL)")
        return connection
    }

    private func log(_ connection: Connection) throws -> [String] {
        try connection.query("SELECT name FROM log ORDER BY rowid") { $0.string(0) }
    }

    // MARK: Applying

    func testStepsApplyInRegistrationOrder() throws {
        let connection = try makeLoggedConnection()
        let migrator = migrator([step("notes.1-create"), step("alpha.1-create"), step("notes.2-index")])
        try migrator.apply(to: connection)
        XCTAssertEqual(try log(connection), ["notes.1-create", "alpha.1-create", "notes.2-index"])
        XCTAssertEqual(try migrator.appliedNames(in: connection), ["notes.1-create", "alpha.1-create", "notes.2-index"])
        XCTAssertTrue(try tableExists("alpha_1_create", in: connection))
    }

    func testAFreshDatabaseHasNoAppliedNames() throws {
        let connection = try makeConnection()
        XCTAssertEqual(try migrator([step("a.1")]).appliedNames(in: connection), [])
        XCTAssertFalse(try tableExists("schema_migrations", in: connection))
    }

    func testSQLStepsRunTheirWholeScript() throws {
        let connection = try makeConnection()
        try migrator([Migration("s.1", sql: "CREATE TABLE s (x); INSERT INTO s VALUES (1); INSERT INTO s VALUES (2);")])
            .apply(to: connection)
        XCTAssertEqual(try count("s", in: connection), 2)
    }

    func testApplyingTwiceIsANoOp() throws {
        let connection = try makeLoggedConnection()
        let migrator = migrator([step("a.1"), step("a.2")])
        try migrator.apply(to: connection)
        try migrator.apply(to: connection)
        try migrator.apply(to: try makeLoggedConnection())
        XCTAssertEqual(try log(connection), ["a.1", "a.2"])
        XCTAssertEqual(try count("schema_migrations", in: connection), 2)
    }

    func testAppliedNamesComeWithATime() throws {
        let connection = try makeConnection()
        try migrator([Migration("a.1", sql: "CREATE TABLE a (x)")]).apply(to: connection)
        let appliedAt = try connection.queryFirst("SELECT applied_at FROM schema_migrations") { $0.double(0) }
        // Seconds since 1970, as memoapp stores every time: after 2020, before 2100.
        XCTAssertGreaterThan(appliedAt ?? 0, 1_577_836_800)
        XCTAssertLessThan(appliedAt ?? .infinity, 4_102_444_800)
    }

    func testALaterMigratorAppliesOnlyItsNewSteps() throws {
        let connection = try makeLoggedConnection()
        try migrator([step("onboarding.1"), step("notes.1")]).apply(to: connection)
        let later = migrator([step("onboarding.1"), step("notes.1")], [step("timers.1"), step("voice.1")])
        try later.apply(to: try makeLoggedConnection())
        XCTAssertEqual(try log(connection), ["onboarding.1", "notes.1", "timers.1", "voice.1"])
        XCTAssertEqual(try later.appliedNames(in: connection), ["onboarding.1", "notes.1", "timers.1", "voice.1"])
    }

    func testAStepRegisteredBetweenAppliedOnesIsAppliedToo() throws {
        let connection = try makeLoggedConnection()
        try migrator([step("a.1"), step("c.1")]).apply(to: connection)
        try migrator([step("a.1"), step("b.1"), step("c.1")]).apply(to: connection)
        XCTAssertEqual(try log(connection), ["a.1", "c.1", "b.1"])
    }

    // MARK: Failures

    func testAFailingStepRollsBackAloneAndKeepsTheEarlierOnes() throws {
        let connection = try makeLoggedConnection()
        let failing = Migration("b.1-broken", sql: """
            CREATE TABLE half_done (x);
            INSERT INTO half_done VALUES (1);
            INSERT INTO no_such_table VALUES (1);
            """)
        let migrator = migrator([step("a.1"), failing, step("c.1")])
        let error = assertThrowsSQLiteError(try migrator.apply(to: connection))
        XCTAssertTrue(error?.message.contains("no_such_table") ?? false, "\(String(describing: error))")
        XCTAssertEqual(try migrator.appliedNames(in: connection), ["a.1"])
        XCTAssertTrue(try tableExists("a_1", in: connection))
        XCTAssertFalse(try tableExists("half_done", in: connection), "the failing step's own work is rolled back")
        XCTAssertFalse(try tableExists("c_1", in: connection), "steps after the failure are not applied")
        XCTAssertEqual(try log(connection), ["a.1"])
    }

    func testAStepThrowingASwiftErrorRollsBackAlone() throws {
        let connection = try makeLoggedConnection()
        let failing = Migration("b.1") { connection in
            try connection.execute("CREATE TABLE half_done (x)")
            throw StepFailed()
        }
        XCTAssertThrowsError(try migrator([step("a.1"), failing]).apply(to: connection)) {
            XCTAssertTrue($0 is StepFailed, "\($0)")
        }
        XCTAssertFalse(try tableExists("half_done", in: connection))
        XCTAssertEqual(try log(connection), ["a.1"])
    }

    func testAfterAFailureAFixedStepAppliesOnTheNextRun() throws {
        let connection = try makeLoggedConnection()
        let broken = Migration("b.1") { _ in throw StepFailed() }
        XCTAssertThrowsError(try migrator([step("a.1"), broken]).apply(to: connection))
        try migrator([step("a.1"), step("b.1")]).apply(to: connection)
        XCTAssertEqual(try log(connection), ["a.1", "b.1"])
    }

    func testADatabaseWithAnUnknownStepIsRefusedAndLeftUntouched() throws {
        do {
            let connection = try makeLoggedConnection()
            try migrator([step("a.1"), step("b.1"), step("future.9-new")]).apply(to: connection)
        }
        let before = try XCTUnwrap(fileBytes(databasePath))
        let olderBuild = migrator([step("a.1"), step("b.1"), step("c.1")])
        do {
            let connection = try makeConnection()
            let error = assertThrowsSQLiteError(try olderBuild.apply(to: connection))
            XCTAssertEqual(error?.isStorageFailure, true)
            XCTAssertTrue(error?.message.contains("future.9-new") ?? false, "\(String(describing: error))")
            XCTAssertFalse(error?.message.contains("a.1") ?? true, "only the unknown names are listed")
            XCTAssertFalse(try tableExists("c_1", in: connection))
        }
        XCTAssertEqual(fileBytes(databasePath), before)
    }

    func testADatabaseWithOnlyUnknownStepsIsRefused() throws {
        try migrator([step("future.1")]).apply(to: try makeLoggedConnection())
        let error = assertThrowsSQLiteError(try migrator([step("a.1")]).apply(to: try makeConnection()))
        XCTAssertTrue(error?.message.contains("future.1") ?? false)
        XCTAssertFalse(try tableExists("a_1", in: try makeConnection()))
    }

    // MARK: Foreign keys during a step

    /// A parent table whose rows are referred to, with ON DELETE CASCADE, by a child table.
    private func makeFamily() throws -> Connection {
        let connection = try makeConnection()
        try migrator([Migration("family.1", sql: """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE child (id INTEGER PRIMARY KEY,
                                parent_id INTEGER NOT NULL REFERENCES parent (id) ON DELETE CASCADE);
            INSERT INTO parent (id, name) VALUES (1, 'one'), (2, 'two');
            INSERT INTO child (parent_id) VALUES (1), (1), (2);
            """)]).apply(to: connection)
        return connection
    }

    /// SQLite's way to change a table's shape: make the new table, copy the
    /// rows, drop the old one, rename the new one
    /// (https://www.sqlite.org/lang_altertable.html#otheralter).
    private let rebuildParent = Migration("family.2-rebuild", sql: """
        CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
        INSERT INTO parent_new (id, name) SELECT id, coalesce(name, '') FROM parent;
        DROP TABLE parent;
        ALTER TABLE parent_new RENAME TO parent;
        """)

    func testRebuildingATableReferredToWithCascadeKeepsTheRowsThatReferToIt() throws {
        let connection = try makeFamily()
        try migrator([Migration("family.1", sql: ""), rebuildParent]).apply(to: connection)
        XCTAssertEqual(try count("child", in: connection), 3, "dropping the old parent table cascaded no deletes")
        XCTAssertEqual(try count("parent", in: connection), 2)
        XCTAssertEqual(try connection.query("PRAGMA foreign_key_check") { $0.string(0) }, [])
        XCTAssertEqual(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) }, 1, "foreign keys are on again")
        // The rebuilt table is a parent like the old one: cascades and checks work again.
        try connection.execute("DELETE FROM parent WHERE id = ?", 1)
        XCTAssertEqual(try count("child", in: connection), 1)
        let error = assertThrowsSQLiteError(try connection.execute("INSERT INTO child (parent_id) VALUES (?)", 9))
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintForeignKey)
    }

    func testAStepThatLeavesRowsPointingNowhereFailsAndRollsBack() throws {
        let connection = try makeFamily()
        let orphaning = Migration("family.2-orphans", sql: "DELETE FROM parent WHERE id = 2;")
        let later = Migration("family.3-after", sql: "CREATE TABLE after_orphans (x);")
        let migrator = migrator([Migration("family.1", sql: ""), orphaning, later])
        let error = assertThrowsSQLiteError(try migrator.apply(to: connection))
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintForeignKey)
        XCTAssertEqual(error?.sql, "PRAGMA foreign_key_check")
        XCTAssertTrue(error?.message.contains("family.2-orphans") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("child row 3") ?? false, "\(String(describing: error))")
        XCTAssertEqual(try count("parent", in: connection), 2, "the step's delete is rolled back")
        XCTAssertEqual(try migrator.appliedNames(in: connection), ["family.1"])
        XCTAssertFalse(try tableExists("after_orphans", in: connection))
        XCTAssertEqual(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) }, 1, "foreign keys are on again")
    }

    func testAConnectionWithoutForeignKeysKeepsThemOff() throws {
        let connection = try Connection(path: databasePath, configuration: Configuration(foreignKeysEnabled: false))
        try migrator([Migration("a.1", sql: "CREATE TABLE a (x)")]).apply(to: connection)
        XCTAssertEqual(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) }, 0)
    }

    func testMigratingInsideATransactionIsRefused() throws {
        let connection = try makeConnection()
        try connection.writeTransaction {
            let error = assertThrowsSQLiteError(try migrator([step("a.1")]).apply(to: connection))
            XCTAssertEqual(error?.codeName, "SQLITE_MISUSE")
        }
        XCTAssertFalse(try tableExists("a_1", in: connection))
    }

    // MARK: Wording

    func testTheRefusalNamesTheProductOfTheConnectionsConfiguration() throws {
        try migrator([step("future.1")]).apply(to: try makeLoggedConnection())
        let named = Configuration(productName: "Notebook")
        let error = assertThrowsSQLiteError(
            try migrator([step("a.1")]).apply(to: try Connection(path: databasePath, configuration: named)))
        XCTAssertTrue(error?.message.contains("was made by a newer Notebook") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("upgrade Notebook to open it") ?? false)
        let unnamed = assertThrowsSQLiteError(try migrator([step("a.1")]).apply(to: try Connection(path: databasePath)))
        XCTAssertTrue(unnamed?.message.contains("was made by a newer version of the application") ?? false,
                      "\(String(describing: unnamed))")
        XCTAssertFalse(unnamed?.message.replacingOccurrences(of: databasePath, with: "").contains("memoapp") ?? true)
    }

    // MARK: The up-to-date mark in the header

    private func userVersion(_ connection: Connection) throws -> Int? {
        try connection.queryFirst("PRAGMA user_version") { $0.int(0) }
    }

    func testAnUpToDateDatabaseCarriesTheListsFingerprint() throws {
        let connection = try makeLoggedConnection()
        let migrator = migrator([step("a.1"), step("a.2")])
        try migrator.apply(to: connection)
        XCTAssertEqual(try userVersion(connection), Int(migrator.fingerprint))
        XCTAssertNotEqual(migrator.fingerprint, 0)
    }

    func testFingerprintsDifferForOtherNamesAndOtherOrders() {
        let base = migrator([step("a.1"), step("b.1")]).fingerprint
        XCTAssertNotEqual(base, migrator([step("b.1"), step("a.1")]).fingerprint)
        XCTAssertNotEqual(base, migrator([step("a.1"), step("b.2")]).fingerprint)
        XCTAssertNotEqual(base, migrator([step("a.1")]).fingerprint)
        // Names are not merely concatenated: "a.1"+"b.1" is not "a.1b"+".1".
        XCTAssertNotEqual(base, migrator([step("a.1b"), step(".1")]).fingerprint)
        XCTAssertEqual(base, migrator([step("a.1"), step("b.1")]).fingerprint)
    }

    func testADatabaseMigratedBeforeTheMarkExistedGetsIt() throws {
        let connection = try makeLoggedConnection()
        let migrator = migrator([step("a.1"), step("a.2")])
        try migrator.apply(to: connection)
        try connection.execute("PRAGMA user_version = 0")
        try migrator.apply(to: connection)
        XCTAssertEqual(try userVersion(connection), Int(migrator.fingerprint))
        XCTAssertEqual(try log(connection), ["a.1", "a.2"], "no step ran twice")
    }

    func testAMarkThatMatchesSkipsTheCheckAndOneThatDoesNotIsCheckedInFull() throws {
        let connection = try makeLoggedConnection()
        try migrator([step("a.1"), step("future.2")]).apply(to: connection)
        // A build that knows only a.1 and finds a newer build's mark: refused.
        let older = migrator([step("a.1")])
        XCTAssertNotNil(assertThrowsSQLiteError(try older.apply(to: connection)))
        XCTAssertNotEqual(try userVersion(connection), Int(older.fingerprint), "a refusal writes no mark")
        // A later build with one more step applies it and moves the mark.
        let later = migrator([step("a.1"), step("future.2"), step("future.3")])
        try later.apply(to: connection)
        XCTAssertEqual(try log(connection), ["a.1", "future.2", "future.3"])
        XCTAssertEqual(try userVersion(connection), Int(later.fingerprint))
    }
}
