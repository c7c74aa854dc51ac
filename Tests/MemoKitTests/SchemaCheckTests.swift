import Foundation
import MemoCore
@testable import MemoKit
import SQLite
import TestSupport
import XCTest

/// A database's schema is held to what memoapp's own migrations make.
final class SchemaCheckTests: XCTestCase {
    private let folder = TemporaryDirectory()

    func testADatabaseMemoappMadeHasNoDifferences() throws {
        let connection = try migrated()
        XCTAssertEqual(try SchemaCheck.differences(in: connection), [])
        // ANALYZE's statistics are SQLite's own.
        try connection.execute("ANALYZE")
        XCTAssertEqual(try SchemaCheck.differences(in: connection), [])
    }

    func testPlantedMissingAndChangedObjectsAreEachNamed() throws {
        let connection = try migrated()
        try connection.executeScript("""
            CREATE TRIGGER evil AFTER INSERT ON todos BEGIN DELETE FROM memos; END;
            CREATE VIEW everything AS SELECT * FROM memos;
            DROP INDEX todos_by_due;
            DROP INDEX memos_by_pin_and_age;
            CREATE INDEX memos_by_pin_and_age ON memos (is_pinned);
            """)
        let differences = try SchemaCheck.differences(in: connection)
        let described = Set(differences.map(\.description.en))
        XCTAssertEqual(described, [
            "trigger \"evil\" on todos is not one memoapp makes",
            "view \"everything\" on everything is not one memoapp makes",
            "index \"todos_by_due\" on todos is missing",
            "index \"memos_by_pin_and_age\" on memos is not defined as memoapp defines it",
        ])
    }

    func testADatabaseOfAnOlderMemoappIsHeldToWhatThatMemoappMade() throws {
        // An older memoapp knew the first migrations only: its database has
        // their objects and nothing else, and that is no difference.
        let older = Array(Schema.migrator.migrations.prefix(3))
        var migrator = Migrator()
        migrator.register(older)
        MemoDatabase.prepareProcess()
        let connection = try Connection(path: folder.appending("older.db"))
        try migrator.apply(to: connection)
        XCTAssertEqual(try SchemaCheck.differences(in: connection), [])
        // Something a later migration would make is still foreign to it.
        let latest = try SchemaCheck.referenceObjects(applying: Schema.migrator.migrations.map(\.name))
        let olderNames = Set(try SchemaCheck.objects(in: connection).map(\.name))
        guard let later = latest.first(where: { !olderNames.contains($0.name) && $0.type == "table" && $0.sql != nil }),
              let sql = try? XCTUnwrap(later.sql) else { return XCTFail("the later migrations make something") }
        try connection.executeScript(sql)
        XCTAssertFalse(try SchemaCheck.differences(in: connection).isEmpty, "\(later.name) made by hand")
    }

    func testLayoutOutsideQuotesDoesNotCountAndInsideItDoes() {
        XCTAssertEqual(SchemaCheck.normalized("CREATE  TABLE\n\tt (\n  a  TEXT ,b CHECK (b = 1) )  "),
                       "CREATE TABLE t(a TEXT,b CHECK(b=1))")
        XCTAssertEqual(SchemaCheck.normalized("CREATE TABLE t(a TEXT,b CHECK(b=1))"), "CREATE TABLE t(a TEXT,b CHECK(b=1))")
        XCTAssertEqual(SchemaCheck.normalized("CREATE TABLE t (a DEFAULT 'x  y', \"b  c\", [d  e], `f  g`)"),
                       "CREATE TABLE t(a DEFAULT 'x  y',\"b  c\",[d  e],`f  g`)")
        XCTAssertEqual(SchemaCheck.normalized("DEFAULT 'it''s  so'  , x"), "DEFAULT 'it''s  so',x")
        XCTAssertNotEqual(SchemaCheck.normalized("DEFAULT 'a b'"), SchemaCheck.normalized("DEFAULT 'a  b'"))
    }

    // MARK: - Helpers

    private func migrated() throws -> Connection {
        // A plain connection: the search indexes' tokenizer must be there first.
        MemoDatabase.prepareProcess()
        let connection = try Connection(path: folder.appending("memoapp.db"))
        try Schema.migrator.apply(to: connection)
        return connection
    }
}
