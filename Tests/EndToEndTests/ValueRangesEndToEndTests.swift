import Foundation
import TestSupport
import XCTest

/// Values a later command cannot handle never get in (an import refuses them
/// with 65 and their JSON path, even into a home with data), and values that
/// are already stored (an older memoapp, the sqlite3 shell) crash nothing:
/// every list and show still runs, and doctor says what is wrong.
final class ValueRangesEndToEndTests: XCTestCase {
    var homes: TransferHomes!

    override func setUp() {
        homes = TransferHomes()
    }

    /// An export of a home with a countdown, a stopwatch with a lap and a to-do.
    private func exportWithTimers() -> [String: Any] {
        let source = homes.home("source")
        source.succeed("timer", "start", "5m", "--label", "tea")
        source.succeed("timer", "start")
        source.succeed("timer", "lap", "2")
        source.succeed("todo", "add", "Buy milk")
        return source.exportObject()
    }

    private func write(_ document: [String: Any], _ name: String) throws -> String {
        let path = homes.folder.appending(name)
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `document` with `change` applied to the first item of `list`.
    private func changing(_ document: [String: Any], _ list: String, at index: Int = 0,
                          _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var document = document
        var items = document[list] as! [[String: Any]]
        change(&items[index])
        document[list] = items
        return document
    }

    private func setSpanBoot(_ value: Any) -> (inout [String: Any]) -> Void {
        { timer in
            var spans = timer["spans"] as! [[String: Any]]
            var start = spans[0]["start"] as! [String: Any]
            start["boot"] = value
            spans[0]["start"] = start
            timer["spans"] = spans
        }
    }

    func testAnImportOfValuesNoCommandCanHandleIsRefusedAndStoresNothing() throws {
        let document = exportWithTimers()
        let target = homes.home("target")
        target.succeed("todo", "add", "already here")
        let before = target.exportText()
        let cases: [(String, [String: Any], String)] = [
            ("duration 1e19", changing(document, "timers") { $0["duration"] = 1e19 }, "$.timers[0].duration"),
            ("duration 1e308", changing(document, "timers") { $0["duration"] = 1e308 }, "$.timers[0].duration"),
            ("duration 2^63-1", changing(document, "timers") { $0["duration"] = Int64.max }, "$.timers[0].duration"),
            ("lap 1e300", changing(document, "timers", at: 1) { timer in
                var laps = timer["laps"] as! [[String: Any]]
                laps[0]["elapsed"] = 1e300
                timer["laps"] = laps
            }, "$.timers[1].laps[0].elapsed"),
            ("boot 2^63", changing(document, "timers", at: 1, setSpanBoot(9.223372036854775808e18)),
             "$.timers[1].spans[0].start.boot"),
            ("boot -2^63", changing(document, "timers", at: 1, setSpanBoot(Int64.min)), "$.timers[1].spans[0].start.boot"),
            ("last_ids 2^63-1", {
                var changed = document
                var counters = changed["last_ids"] as! [String: Any]
                counters["todos"] = Int64.max
                changed["last_ids"] = counters
                return changed
            }(), "$.last_ids.todos"),
            ("title of two lines", changing(document, "todos") { $0["title"] = "one\ntwo" }, "$.todos[0].title"),
        ]
        for (name, changed, path) in cases {
            let file = try write(changed, "bad.json")
            for home in [target, homes.home("empty-\(name.filter(\.isLetter))")] {
                let result = home.run("import", file)
                XCTAssertEqual(result.status, 65, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(path), "\(name): \(result.stderr)")
            }
            XCTAssertEqual(target.exportText(), before, "\(name) changed the data home")
        }
    }

    func testStoredValuesFromTheSQLiteShellCrashNothingAndDoctorNamesThem() {
        let app = homes.home("damaged")
        app.succeed("timer", "start", "5m")
        app.succeed("timer", "start")
        app.succeed("timer", "lap", "2")
        app.succeed("todo", "add", "due soon", "--due", "2030-01-01")
        app.succeed("memo", "add", "text")
        XCTAssertEqual(app.run("doctor").status, 0)
        sqlite3(app.databasePath, """
            UPDATE timers SET duration = 1e19 WHERE id = 1;
            UPDATE timer_spans SET start_boot = -9.3e18 WHERE timer_id = 2;
            UPDATE timer_laps SET elapsed = 1e300 WHERE timer_id = 2;
            """)
        // A title is indexed for search: only a program with memoapp's tokenizer writes it.
        memoappSQL(app.databasePath, """
            UPDATE todos SET due_at = 9e999, created_at = -1e300, title = 'a' || char(10) || 'b';
            UPDATE memos SET updated_at = 1e300;
            """)
        for arguments in [["timer", "list"], ["timer", "list", "--all"], ["timer", "status", "1"],
                          ["timer", "status", "2"], [], ["--json"], ["todo", "list"], ["todo", "show", "1"],
                          ["todo", "list", "--json"], ["memo", "list"], ["memo", "show", "1"], ["search", "due"],
                          ["export"], ["timer", "list", "--json"]] {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.status) \(result.stderr)")
        }
        XCTAssertEqual(app.run("timer", "cancel", "1").status, 0)
        let doctor = app.doctor()
        XCTAssertEqual(doctor.status, 1)
        let check = (doctor.document["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "stored_values" }
        let messages = (check?["problems"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
        XCTAssertEqual(messages.count, 4, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("timer 1: duration") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("to-do 1:") && $0.contains("spans lines") }, "\(messages)")
    }

    func testARestoreOfValuesNoCommandCanHandleIsRefusedAndStoresNothing() {
        let source = homes.home("backed-up")
        source.succeed("timer", "start", "5m")
        source.succeed("todo", "add", "kept")
        sqlite3(source.databasePath, "UPDATE timers SET duration = 1e19")
        let backup = homes.folder.appending("backup")
        XCTAssertEqual(source.run("backup", backup).status, 0)
        let target = homes.home("restored-into")
        target.succeed("todo", "add", "mine")
        let before = target.exportText()
        let result = target.run("restore", backup, "--force")
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("timers 1: duration 1e+19"), result.stderr)
        XCTAssertEqual(target.exportText(), before)
    }

    func testIdsThatRunOutSaySoAndNotThatTheDiskIsFull() {
        let app = homes.home("counters")
        app.succeed("todo", "add", "first")
        app.succeed("memo", "add", "first")
        sqlite3(app.databasePath, "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name IN ('todos', 'memos')")
        let todo = app.run("todo", "add", "second")
        XCTAssertEqual(todo.status, 74)
        XCTAssertTrue(todo.stderr.contains("no more to-dos can be added"), todo.stderr)
        XCTAssertFalse(todo.stderr.contains("full"), todo.stderr)
        let memo = app.run("memo", "add", "second")
        XCTAssertTrue(memo.stderr.contains("no more memos can be added"), memo.stderr)
        let doctor = app.run("doctor")
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("the id counter is at its end"), doctor.stdout)
    }
}
