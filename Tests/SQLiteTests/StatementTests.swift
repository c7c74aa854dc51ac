import SQLite
import XCTest

final class StatementTests: SQLiteTestCase {
    /// Thrown from a map that ran more often than the rows it maps.
    private struct Runaway: Error {}

    private var connection: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        connection = try makeConnection()
        try connection.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value)")
    }

    override func tearDown() {
        connection = nil
        super.tearDown()
    }

    // MARK: Argument count

    func testTooFewArgumentsAreRefusedWithSQLiteRange() throws {
        let error = assertThrowsSQLiteError(try connection.execute("INSERT INTO v (id, value) VALUES (?, ?)", 1))
        XCTAssertEqual(error?.code, ResultCode.range)
        XCTAssertEqual(error?.codeName, "SQLITE_RANGE")
        XCTAssertEqual(error?.sql, "INSERT INTO v (id, value) VALUES (?, ?)")
        XCTAssertTrue(error?.message.contains("2 arguments, 1 given") ?? false, "\(String(describing: error))")
        XCTAssertEqual(try count("v", in: connection), 0)
    }

    func testTooManyArgumentsAreRefusedWithSQLiteRange() throws {
        let error = assertThrowsSQLiteError(try connection.execute("INSERT INTO v (value) VALUES (?)", 1, 2))
        XCTAssertEqual(error?.code, ResultCode.range)
        XCTAssertEqual(try count("v", in: connection), 0)
    }

    func testArgumentsForAStatementWithoutPlaceholdersAreRefused() throws {
        let error = assertThrowsSQLiteError(try connection.query("SELECT 1", 1) { $0.int(0) })
        XCTAssertEqual(error?.code, ResultCode.range)
        let none = assertThrowsSQLiteError(try connection.queryFirst("SELECT ?") { $0.int(0) })
        XCTAssertEqual(none?.code, ResultCode.range)
    }

    func testAStatementRefusedForItsCountWorksWithTheRightCount() throws {
        let sql = "INSERT INTO v (value) VALUES (?)"
        assertThrowsSQLiteError(try connection.execute(sql))
        try connection.execute(sql, "second try")
        XCTAssertEqual(try connection.query("SELECT value FROM v") { $0.string(0) }, ["second try"])
    }

    func testParameterCountIsTheNumberOfPlaceholders() throws {
        XCTAssertEqual(try connection.cachedStatement("SELECT ?, ?, ?").parameterCount, 3)
        XCTAssertEqual(try connection.cachedStatement("SELECT 1").parameterCount, 0)
    }

    // MARK: Typed round trips

    func testIntegersRoundTrip() throws {
        for number: Int64 in [0, 1, -1, 42, Int64.max, Int64.min] {
            let stored = try roundTrip(.integer(number))
            XCTAssertEqual(stored.type, "integer")
            XCTAssertEqual(stored.value, .integer(number))
        }
        XCTAssertEqual(try roundTrip(Int32.min.sqliteValue).value, .integer(Int64(Int32.min)))
        XCTAssertEqual(try roundTrip(7.sqliteValue).value, .integer(7))
        XCTAssertEqual(try roundTrip(true.sqliteValue).value, .integer(1))
        XCTAssertEqual(try roundTrip(false.sqliteValue).value, .integer(0))
    }

    func testRealsRoundTrip() throws {
        for number in [0.0, 0.1, -2.5, 1e300, -1e-300, Double.greatestFiniteMagnitude, .infinity, -.infinity,
                       1_795_959_645.123_456] {
            let stored = try roundTrip(.real(number))
            XCTAssertEqual(stored.type, "real")
            XCTAssertEqual(stored.value, .real(number))
        }
    }

    func testNaNIsStoredAsNull() throws {
        // SQLite has no NaN: it stores NULL (https://www.sqlite.org/datatype3.html).
        XCTAssertEqual(try roundTrip(.real(.nan)).type, "null")
    }

    func testTextRoundTripsExactly() throws {
        for text in ["", "plain", "오늘의 할일", "👩‍💻🎙️⏱️", "é (e\u{301})", "'); DROP TABLE v; --", "tab\tnew\nline"] {
            let stored = try roundTrip(.text(text))
            XCTAssertEqual(stored.type, "text", text)
            XCTAssertEqual(stored.value, .text(text))
            XCTAssertEqual(stored.byteCount, text.utf8.count, text)
        }
        XCTAssertTrue(try tableExists("v", in: connection))
    }

    func testEmptyTextStaysTextNotNull() throws {
        let stored = try roundTrip(.text(""))
        XCTAssertEqual(stored.type, "text")
        try connection.execute("DELETE FROM v")
        try connection.execute("INSERT INTO v (value) VALUES (?)", "")
        XCTAssertEqual(try connection.queryFirst("SELECT value FROM v") { $0.optionalString(0) }, "")
    }

    func testTextWithNULCharactersIsStoredWhole() throws {
        let text = "a\u{0}b\u{0}\u{0}끝"
        let stored = try roundTrip(.text(text))
        XCTAssertEqual(stored.type, "text")
        XCTAssertEqual(stored.value, .text(text))
        XCTAssertEqual(stored.byteCount, text.utf8.count)
    }

    func testOneMegabyteOfTextRoundTrips() throws {
        let text = String(repeating: "메모 memo 🎙️ ", count: (1 << 20) / 20 + 1)
        XCTAssertGreaterThan(text.utf8.count, 1 << 20)
        let stored = try roundTrip(.text(text))
        XCTAssertEqual(stored.byteCount, text.utf8.count)
        XCTAssertEqual(stored.value, .text(text))
    }

    func testBlobsRoundTrip() throws {
        let bytes: [UInt8] = [0, 1, 2, 0, 255, 0x80, 0xC3]
        let stored = try roundTrip(.blob(bytes))
        XCTAssertEqual(stored.type, "blob")
        XCTAssertEqual(stored.value, .blob(bytes))
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertEqual(try roundTrip(large.sqliteValue).value, .blob(large))
    }

    func testEmptyBlobStaysBlobNotNull() throws {
        let stored = try roundTrip(.blob([]))
        XCTAssertEqual(stored.type, "blob")
        XCTAssertEqual(stored.value, .blob([]))
        XCTAssertEqual(stored.byteCount, 0)
        XCTAssertFalse(try connection.queryFirst("SELECT value FROM v") { $0.isNull(0) } ?? true)
    }

    func testNullRoundTrips() throws {
        XCTAssertEqual(try roundTrip(.null).type, "null")
        let missing: String? = nil
        try connection.execute("DELETE FROM v")
        try connection.execute("INSERT INTO v (value) VALUES (?)", missing)
        let row = try connection.queryFirst("SELECT value FROM v") { row in
            (row.isNull(0), row.optionalString(0), row.optionalDouble(0), row.optionalInt(0), row.value(0))
        }
        XCTAssertEqual(row?.0, true)
        XCTAssertNil(row?.1)
        XCTAssertNil(row?.2)
        XCTAssertNil(row?.3)
        XCTAssertEqual(row?.4, .null)
    }

    func testRowAccessorsReadEachColumn() throws {
        let row = try connection.queryFirst("SELECT ?, ?, ?, ?, ?", 5, 2.5, "텍스트", [UInt8]([9, 8]), true) { row in
            (row.columnCount, row.int(0), row.int64(0), row.double(1), row.string(2), row.blob(3), row.bool(4),
             row.optionalInt(0), row.optionalDouble(1), row.optionalString(2))
        }
        let values = try XCTUnwrap(row)
        XCTAssertEqual(values.0, 5)
        XCTAssertEqual(values.1, 5)
        XCTAssertEqual(values.2, 5)
        XCTAssertEqual(values.3, 2.5)
        XCTAssertEqual(values.4, "텍스트")
        XCTAssertEqual(values.5, [9, 8])
        XCTAssertEqual(values.6, true)
        XCTAssertEqual(values.7, 5)
        XCTAssertEqual(values.8, 2.5)
        XCTAssertEqual(values.9, "텍스트")
    }

    // MARK: The statement cache

    func testTheSameSQLReusesOnePreparedStatement() throws {
        let first = try connection.cachedStatement("SELECT value FROM v WHERE id = ?")
        let second = try connection.cachedStatement("SELECT value FROM v WHERE id = ?")
        let other = try connection.cachedStatement("SELECT id FROM v WHERE id = ?")
        XCTAssertTrue(first === second)
        XCTAssertFalse(first === other)
        XCTAssertEqual(first.sql, "SELECT value FROM v WHERE id = ?")
    }

    func testACachedStatementStartsAfreshEachTime() throws {
        try connection.executeScript("INSERT INTO v (value) VALUES ('a'), ('b'), ('c');")
        let sql = "SELECT value FROM v ORDER BY id"
        XCTAssertEqual(try connection.queryFirst(sql) { $0.string(0) }, "a")
        XCTAssertEqual(try connection.query(sql) { $0.string(0) }, ["a", "b", "c"])
        XCTAssertEqual(try connection.queryFirst(sql) { $0.string(0) }, "a")
    }

    func testACachedStatementWorksAfterAConstraintFailure() throws {
        try connection.execute("CREATE UNIQUE INDEX v_value ON v (value)")
        let sql = "INSERT INTO v (value) VALUES (?)"
        try connection.execute(sql, "once")
        let error = assertThrowsSQLiteError(try connection.execute(sql, "once"))
        XCTAssertEqual(error?.extendedCode, ResultCode.constraintUnique)
        try connection.execute(sql, "twice")
        XCTAssertEqual(try count("v", in: connection), 2)
    }

    func testBindingsDoNotLeakIntoTheNextRun() throws {
        let sql = "SELECT ? IS NULL"
        XCTAssertEqual(try connection.queryFirst(sql, "x") { $0.bool(0) }, false)
        XCTAssertEqual(try connection.queryFirst(sql, arguments: [.null]) { $0.bool(0) }, true)
    }

    // MARK: Cached and fresh statements

    func testAFreshStatementIsNewEveryTimeAndNotTheCachedOne() throws {
        let sql = "SELECT value FROM v WHERE id = ?"
        let cached = try connection.cachedStatement(sql)
        let fresh = try connection.makeStatement(sql)
        let another = try connection.makeStatement(sql)
        XCTAssertFalse(fresh === cached)
        XCTAssertFalse(fresh === another)
        XCTAssertTrue(try connection.cachedStatement(sql) === cached, "making fresh ones leaves the cache alone")
    }

    func testTheSameSQLRunInsideAQuerysMapGetsAFreshStatementAndTheOuterRunGoesOn() throws {
        try connection.executeScript("INSERT INTO v (value) VALUES (1), (2), (3), (4), (5);")
        let sql = "SELECT value FROM v WHERE value > ? ORDER BY value"
        let cached = try connection.cachedStatement(sql)
        // Each outer row counts the rows above it with the very same SQL; a
        // reset of the outer statement would restart or end its run.
        var calls = 0
        let pairs = try connection.query(sql, 0) { row -> [Int] in
            calls += 1
            guard calls <= 5 else { throw Runaway() }  // a restarted outer run would never end
            let value = row.int(0)
            let above = try connection.query(sql, value) { $0.int(0) }
            XCTAssertEqual(row.int(0), value, "the outer row is still the same row")
            return [value, above.count]
        }
        XCTAssertEqual(pairs, [[1, 4], [2, 3], [3, 2], [4, 1], [5, 0]])
        XCTAssertTrue(try connection.cachedStatement(sql) === cached, "the outer run kept the cached statement")
        XCTAssertFalse(cached.isRunning)
        XCTAssertEqual(try connection.query(sql, 3) { $0.int(0) }, [4, 5], "and it is reusable after")
    }

    func testQueryFirstAndExecuteInsideAMapOfTheSameSQLLeaveTheOuterRunAlone() throws {
        try connection.executeScript("INSERT INTO v (value) VALUES ('a'), ('b'), ('c');")
        let sql = "SELECT value FROM v ORDER BY id"
        var seen: [String] = []
        let outer = try connection.query(sql) { row -> String in
            guard seen.count < 3 else { throw Runaway() }  // a restarted outer run would never end
            seen.append(try connection.queryFirst(sql) { $0.string(0) } ?? "none")
            try connection.execute(sql)
            return row.string(0)
        }
        XCTAssertEqual(outer, ["a", "b", "c"])
        XCTAssertEqual(seen, ["a", "a", "a"])
    }

    func testAStatementRunByHandStepsBindsAndResets() throws {
        try connection.executeScript("INSERT INTO v (value) VALUES ('a'), ('b'), ('c');")
        let statement = try connection.makeStatement("SELECT value FROM v WHERE id >= ? ORDER BY id")
        try statement.bind([.integer(2)])
        XCTAssertFalse(statement.isRunning)
        XCTAssertTrue(try statement.step())
        XCTAssertTrue(statement.isRunning)
        XCTAssertEqual(statement.row.string(0), "b")
        // A query of the same SQL meanwhile does not disturb a run held by hand.
        XCTAssertEqual(try connection.query(statement.sql, 1) { $0.string(0) }, ["a", "b", "c"])
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.row.string(0), "c")
        XCTAssertFalse(try statement.step())
        XCTAssertFalse(statement.isRunning)
        statement.reset()
        XCTAssertTrue(try statement.step(), "reset keeps the bindings and starts over")
        XCTAssertEqual(statement.row.string(0), "b")
        statement.reset()
        XCTAssertFalse(statement.isRunning)
    }

    func testAFreshStatementReportsItsSyntaxError() throws {
        let error = assertThrowsSQLiteError(try connection.makeStatement("SELEC value FROM v"))
        XCTAssertEqual(error?.code, ResultCode.error)
        XCTAssertEqual(error?.sql, "SELEC value FROM v")
    }

    // MARK: - Helpers

    /// Stores `value` in a fresh row, then reads back its SQLite type, its byte
    /// length and the value itself.
    private func roundTrip(_ value: SQLiteValue) throws -> (type: String, byteCount: Int, value: SQLiteValue) {
        try connection.execute("DELETE FROM v")
        try connection.execute("INSERT INTO v (value) VALUES (?)", value)
        let result = try connection.queryFirst("SELECT typeof(value), length(CAST(value AS BLOB)), value FROM v") {
            ($0.string(0), $0.optionalInt(1) ?? -1, $0.value(2))
        }
        return try XCTUnwrap(result)
    }
}
