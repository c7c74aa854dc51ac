import Foundation
import TestSupport
import XCTest

/// An import into an empty home writes its to-dos with SQLite's CHECKs off
/// (`PRAGMA ignore_check_constraints`, see `NotesArchive.bulkWrite`): memoapp
/// checks each value itself instead. Every CHECK of `todos` must then have
/// its check in memoapp, or a value the schema forbids would be stored.
/// Each case breaks one CHECK in an otherwise good export document: the
/// import is refused (65) and the home stays empty.
final class BulkImportChecksEndToEndTests: XCTestCase {
    /// The columns with a CHECK, each with values that break it. `rev` is
    /// not in an export document: memoapp numbers the rows itself.
    static let broken: [(column: String, member: String, values: [Any])] = [
        ("priority", "priority", ["urgent", 7, ""]),
        ("repeat_every", "repeat.every", [0, 1000, -1]),
        ("repeat_unit", "repeat.unit", ["hour", "", "WEEK!"]),
        ("repeat_from", "repeat.from", ["never", ""]),
        ("repeat_day", "repeat.day", [0, 32, -5]),
    ]

    func testEveryCheckOfTheToDosTableIsMadeByTheImportItself() throws {
        let folder = TemporaryDirectory()
        let source = Memoapp(home: folder.appending("source"))
        source.onboard()
        XCTAssertEqual(source.run("todo", "add", "rent", "--due", "2030-01-31", "--repeat", "monthly",
                                  "--priority", "high").status, 0)
        let database = source.home + "/memoapp.db"
        let schema = sqlite3(database, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'todos'")
        let checked = Set(Self.checkedColumns(in: schema))
        XCTAssertEqual(checked, Set(Self.broken.map(\.column) + ["rev"]),
                       "a new CHECK on todos needs its case here, and its check in the import")
        let exported = source.run("export")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let good = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])

        var index = 0
        for (column, member, values) in Self.broken {
            for value in values {
                index += 1
                var document = good
                var todos = try XCTUnwrap(document["todos"] as? [[String: Any]])
                todos[0] = Self.setting(member, to: value, in: todos[0])
                document["todos"] = todos
                let file = folder.appending("broken-\(index).json")
                try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))
                let target = Memoapp(home: folder.appending("target-\(index)"))
                target.onboard()
                let imported = target.run("import", file)
                XCTAssertEqual(imported.status, 65, "\(column) = \(value): \(imported.stdout) \(imported.stderr)")
                XCTAssertEqual(target.run("--json", "todo", "list", "--all").array().count, 0, "\(column) = \(value)")
            }
        }
        // The good document itself goes in, CHECKs off and all.
        let target = Memoapp(home: folder.appending("target-good"))
        target.onboard()
        let file = folder.appending("good.json")
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(target.run("import", file).status, 0)
        XCTAssertEqual(target.run("--json", "todo", "list").array().first?["priority"] as? String, "high")
    }

    /// The columns a table's SQL puts a CHECK on: a column's own CHECK
    /// names it before the keyword, a table CHECK names it inside.
    static func checkedColumns(in sql: String) -> [String] {
        var columns: [String] = []
        var rest = Substring(sql)
        while let range = rest.range(of: "CHECK (") {
            let inside = rest[range.upperBound...].prefix { $0 != " " && $0 != ")" }
            columns.append(String(inside))
            rest = rest[range.upperBound...]
        }
        return columns
    }

    /// `item` with `path` (`a` or `a.b`) set to `value`.
    static func setting(_ path: String, to value: Any, in item: [String: Any]) -> [String: Any] {
        var item = item
        let parts = path.split(separator: ".").map(String.init)
        if parts.count == 1 {
            item[parts[0]] = value
        } else {
            var inner = item[parts[0]] as? [String: Any] ?? [:]
            inner[parts[1]] = value
            item[parts[0]] = inner
        }
        return item
    }
}
