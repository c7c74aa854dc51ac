import SQLite
import XCTest

/// Reading a row's columns by name as well as by index.
final class RowTests: SQLiteTestCase {
    private var connection: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        connection = try makeConnection()
        try connection.executeScript("""
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, score REAL, body BLOB, done INTEGER);
            INSERT INTO notes (title, score, body, done) VALUES ('첫 메모', 2.5, x'0001ff', 1);
            INSERT INTO notes (title, score, body, done) VALUES ('second', NULL, NULL, 0);
            """)
    }

    override func tearDown() {
        connection = nil
        super.tearDown()
    }

    func testEveryTypedAccessorReadsTheColumnNamed() throws {
        let first = try connection.queryFirst("SELECT * FROM notes WHERE id = ?", 1) { row in
            (row.int("id"), row.int64("id"), row.string("title"), row.double("score"), row.blob("body"),
             row.bool("done"), row.optionalString("title"), row.optionalDouble("score"), row.optionalInt("done"))
        }
        let values = try XCTUnwrap(first)
        XCTAssertEqual(values.0, 1)
        XCTAssertEqual(values.1, 1)
        XCTAssertEqual(values.2, "첫 메모")
        XCTAssertEqual(values.3, 2.5)
        XCTAssertEqual(values.4, [0x00, 0x01, 0xFF])
        XCTAssertEqual(values.5, true)
        XCTAssertEqual(values.6, "첫 메모")
        XCTAssertEqual(values.7, 2.5)
        XCTAssertEqual(values.8, 1)
    }

    func testNullColumnsReadByNameAreNil() throws {
        let second = try XCTUnwrap(connection.queryFirst("SELECT * FROM notes WHERE id = 2") { row in
            (row.isNull("score"), row.optionalDouble("score"), row.optionalString("body"), row.isNull("title"))
        })
        XCTAssertTrue(second.0)
        XCTAssertNil(second.1)
        XCTAssertNil(second.2)
        XCTAssertFalse(second.3)
    }

    func testTheSubscriptGivesTheValueByNameOrByIndex() throws {
        let values = try connection.query("SELECT id, title, score FROM notes ORDER BY id") { row in
            [row["id"], row["title"], row["score"], row[1]]
        }
        XCTAssertEqual(values, [[.integer(1), .text("첫 메모"), .real(2.5), .text("첫 메모")],
                                [.integer(2), .text("second"), .null, .text("second")]])
    }

    func testAnAliasIsTheColumnsName() throws {
        let titles = try connection.query("SELECT upper(title) AS loud, id FROM notes ORDER BY id") { row in
            (row.string("loud"), row.int("id"))
        }
        XCTAssertEqual(titles.map(\.0), ["첫 메모", "SECOND"])
        XCTAssertEqual(titles.map(\.1), [1, 2])
    }

    func testNamesMatchWhateverTheirASCIICase() throws {
        let title = try connection.queryFirst("SELECT Title FROM notes WHERE id = 2") { row in
            (row.string("Title"), row.string("title"), row.string("TITLE"))
        }
        XCTAssertEqual(title?.0, "second")
        XCTAssertEqual(title?.1, "second")
        XCTAssertEqual(title?.2, "second")
    }

    func testTheLeftmostOfTwoColumnsWithOneNameWins() throws {
        let ids = try connection.queryFirst("SELECT a.id, b.id FROM notes a JOIN notes b ON b.id = a.id + 1") { row in
            (row.int("id"), row.int(1))
        }
        XCTAssertEqual(ids?.0, 1)
        XCTAssertEqual(ids?.1, 2)
    }

    func testHasColumnTellsWhichNamesTheRowHas() throws {
        let answers = try connection.queryFirst("SELECT id, title AS name FROM notes") { row in
            (row.hasColumn("id"), row.hasColumn("name"), row.hasColumn("title"), row.hasColumn(""), row.columnCount)
        }
        XCTAssertEqual(answers?.0, true)
        XCTAssertEqual(answers?.1, true)
        XCTAssertEqual(answers?.2, false, "the alias replaces the column's own name")
        XCTAssertEqual(answers?.3, false)
        XCTAssertEqual(answers?.4, 2)
    }

    func testTheStatementKnowsItsColumnNamesBeforeItRuns() throws {
        let statement = try connection.makeStatement("SELECT id, title AS name, 1 + 1 FROM notes")
        XCTAssertEqual(statement.columnCount, 3)
        XCTAssertEqual(statement.columnNames, ["id", "name", "1 + 1"])
        XCTAssertEqual(statement.columnIndex(named: "name"), 1)
        XCTAssertEqual(statement.columnIndex(named: "NAME"), 1)
        XCTAssertNil(statement.columnIndex(named: "title"))
    }

    func testNamesAreReadFromEveryRowOfARun() throws {
        try connection.writeTransaction {
            for index in 3...50 { try connection.execute("INSERT INTO notes (title) VALUES (?)", "n\(index)") }
        }
        let titles = try connection.query("SELECT id, title FROM notes ORDER BY id") { "\($0.int("id")):\($0.string("title"))" }
        XCTAssertEqual(titles.count, 50)
        XCTAssertEqual(titles.last, "50:n50")
        XCTAssertEqual(titles[2], "3:n3")
    }
}
