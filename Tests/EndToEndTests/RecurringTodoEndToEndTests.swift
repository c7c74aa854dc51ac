import Foundation
import TestSupport
import XCTest

/// Recurring to-dos through the built binary: `--repeat` on add and edit,
/// the next occurrence made by `todo done`, one undo taking both back, the
/// rule in lists and JSON, bad rules refused, and export/import keeping it.
/// Dues are in 2099, so the next occurrence never depends on today's date.
final class RecurringTodoEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func todos(_ home: Memoapp? = nil, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let result = (home ?? app).run("todo", "list", "--all", "--sort", "created", "--json")
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.array(file: file, line: line)
    }

    /// `repeat` as `every unit from` (`1 month due`), or nil when null.
    private func rule(_ todo: [String: Any]?) -> String? {
        guard let rule = todo?["repeat"] as? [String: Any] else { return nil }
        XCTAssertEqual(rule.count, 3, "\(rule)")
        return "\(rule["every"] as? Int ?? 0) \(rule["unit"] as? String ?? "?") \(rule["from"] as? String ?? "?")"
    }

    func testMonthlyToDoComesBackOnTheDayItStartedOnAndOneUndoTakesBothBack() {
        let added = app.run("todo", "add", "pay rent", "--due", "2099-01-31", "--repeat", "monthly", "--tag", "home",
                            "--priority", "high", "--note", "transfer", "--json")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(rule(added.object()), "1 month due")
        XCTAssertTrue(app.run("todo", "list").stdout.contains("↻ monthly"), app.run("todo", "list").stdout)
        XCTAssertTrue(app.run("todo", "list", "--lang", "ko").stdout.contains("↻ 매월"))
        XCTAssertTrue(app.run("todo", "show", "1").stdout.contains("monthly"))

        let done = app.run("todo", "done", "1")
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertTrue(done.stdout.contains("Done: "), done.stdout)
        XCTAssertTrue(done.stdout.contains("Next: 2 [ ] pay rent  due 2099-02-28"), done.stdout)
        XCTAssertEqual(app.run("todo", "done", "2", "--json").status, 0)
        let all = todos()
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(all.map { $0["due_local"] as? String }, ["2099-01-31", "2099-02-28", "2099-03-31"])
        XCTAssertEqual(all.map { $0["is_done"] as? Bool }, [true, true, false])
        let march = all[2]
        XCTAssertEqual(march["title"] as? String, "pay rent")
        XCTAssertEqual(march["note"] as? String, "transfer")
        XCTAssertEqual(march["tags"] as? [String], ["home"])
        XCTAssertEqual(march["priority"] as? String, "high")
        XCTAssertEqual(rule(march), "1 month due")

        let undone = app.run("undo")
        XCTAssertEqual(undone.status, 0, undone.stderr)
        let after = todos()
        XCTAssertEqual(after.map { $0["id"] as? Int }, [1, 2], "the occurrence the done made is gone")
        XCTAssertEqual(after.map { $0["is_done"] as? Bool }, [true, false], "and the to-do is open again")
    }

    func testEditingTheRule() {
        XCTAssertEqual(app.run("todo", "add", "water plants", "--due", "2099-06-06", "--repeat", "every 2 weeks").status, 0)
        XCTAssertEqual(rule(todos().first), "2 week due")
        let changed = app.run("todo", "edit", "1", "--repeat", "3d", "--repeat-from", "done", "--json")
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertEqual(rule(changed.object()), "3 day done")
        XCTAssertTrue(app.run("todo", "list").stdout.contains("↻ every 3 days (from done)"))
        let stopped = app.run("todo", "edit", "1", "--no-repeat", "--json")
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertTrue(stopped.object()["repeat"] is NSNull)
        XCTAssertEqual(app.run("todo", "done", "1").stdout.contains("Next"), false, "a one-off comes back no more")
        XCTAssertEqual(todos().count, 1)
    }

    func testBadRulesAndRulesWithoutADueDateAreUsageErrorsThatChangeNothing() {
        let cases: [([String], String)] = [
            (["todo", "add", "x", "--repeat", "weekly"], "due date"),
            (["todo", "add", "x", "--due", "2099-01-01", "--repeat", "sometimes"], "weekly"),
            (["todo", "add", "x", "--due", "2099-01-01", "--repeat", "0d"], "weekly"),
            (["todo", "add", "x", "--due", "2099-01-01", "--repeat", "every 1000 days"], "weekly"),
            (["todo", "add", "x", "--due", "2099-01-01", "--repeat-from", "done"], "--repeat"),
            (["todo", "add", "x", "--due", "2099-01-01", "--repeat", "daily", "--repeat-from", "later"], "due"),
        ]
        for (arguments, message) in cases {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(app.run(arguments + ["--json"]).errorCode, "usage")
        }
        XCTAssertEqual(todos().count, 0)
        XCTAssertEqual(app.run("todo", "add", "y", "--due", "2099-01-01", "--repeat", "daily").status, 0)
        let undated = app.run("todo", "edit", "1", "--no-due")
        XCTAssertEqual(undated.status, 64, undated.stderr)
        XCTAssertEqual(todos().first?["due_local"] as? String, "2099-01-01")
        XCTAssertEqual(app.run("todo", "edit", "1", "--repeat", "daily", "--no-repeat").status, 64)
    }

    func testExportAndImportKeepTheRuleAndItsMonthDay() throws {
        XCTAssertEqual(app.run("todo", "add", "rent", "--due", "2099-01-31", "--repeat", "monthly").status, 0)
        XCTAssertEqual(app.run("todo", "done", "1").status, 0)
        let file = folder.appending("export.json")
        XCTAssertEqual(app.run("export", "--output", file).status, 0)
        let document = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(document.contains("\"day\": 31"), "the month day is exported")
        let other = Memoapp(home: folder.appending("other"))
        other.onboard()
        let imported = other.run("import", file)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(todos(other).map { rule($0) }, todos().map { rule($0) })
        // The imported February occurrence still comes back on March 31.
        XCTAssertEqual(other.run("todo", "done", "2").status, 0)
        XCTAssertEqual(todos(other).last?["due_local"] as? String, "2099-03-31")
    }
}
