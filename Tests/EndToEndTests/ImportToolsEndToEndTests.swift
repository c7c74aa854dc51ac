import Foundation
import TestSupport
import XCTest

/// `todo import --from todotxt|taskwarrior` through the built binary, on files
/// the real todo.sh and Taskwarrior wrote: every field, all or nothing on a
/// malformed file, and nothing added twice.
final class ImportToolsEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    /// Every to-do, open and done, oldest id first.
    private func allTodos(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let result = app.run("todo", "list", "--all", "--json")
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.array(file: file, line: line).sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
    }

    private func todo(titled title: String, in todos: [[String: Any]],
                      file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        guard let found = todos.first(where: { $0["title"] as? String == title }) else {
            XCTFail("no to-do titled \(title) in \(todos.map { $0["title"] ?? "" })", file: file, line: line)
            return [:]
        }
        return found
    }

    private func write(_ text: String, to name: String) throws -> String {
        let path = folder.appending(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: todo.txt

    func testTodoTxtWrittenByTodoShImportsEveryField() throws {
        let todoSh = try TodoTxtFolder(in: folder)
        todoSh("add", "Thank Mom for the meatballs @phone")
        todoSh("-t", "add", "회의록 작성 +업무 @사무실")
        todoSh("add", "Pay rent due:2099-12-01 +home t:2099-11-25")
        todoSh("-t", "add", "Plain task")
        todoSh("add", "Later thing")
        todoSh("pri", "1", "A")
        todoSh("pri", "2", "B")
        todoSh("pri", "5", "D")
        todoSh("do", "4")
        let lines = try String(contentsOfFile: todoSh.todoFile, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, "\(lines)")
        let doneLine = try XCTUnwrap(lines.first { $0.hasPrefix("x ") })
        let doneWords = doneLine.split(separator: " ").map(String.init)

        app.onboard()
        let result = app.run("todo", "import", "--from", "todotxt", todoSh.todoFile, "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = result.object()
        XCTAssertEqual(report["added"] as? Int, 5)
        XCTAssertEqual(report["already_present"] as? Int, 0)
        XCTAssertEqual(report["ids"] as? [Int], [1, 2, 3, 4, 5])
        XCTAssertNil(report["skipped"], "todo.txt skips nothing")

        let todos = allTodos()
        XCTAssertEqual(todos.count, 5)
        let mom = todo(titled: "Thank Mom for the meatballs @phone", in: todos)
        XCTAssertEqual(mom["priority"] as? String, "high")
        XCTAssertEqual(mom["tags"] as? [String], ["phone"])
        XCTAssertEqual(mom["is_done"] as? Bool, false)

        let minutes = todo(titled: "회의록 작성 +업무 @사무실", in: todos)
        XCTAssertEqual(minutes["priority"] as? String, "medium")
        XCTAssertEqual(minutes["tags"] as? [String], ["업무", "사무실"])
        let created = try XCTUnwrap(lines.first { $0.contains("회의록") }).split(separator: " ")[1]
        XCTAssertEqual(minutes["created_at"] as? String, created + "T00:00:00.000Z", "todo.sh -t dated it (TZ is UTC)")

        let rent = todo(titled: "Pay rent +home", in: todos)
        XCTAssertEqual(rent["due_local"] as? String, "2099-12-01")
        XCTAssertEqual(rent["due_has_time"] as? Bool, false)
        XCTAssertEqual(rent["note"] as? String, "t:2099-11-25")
        XCTAssertEqual(rent["tags"] as? [String], ["home"])
        let tagged = app.run("todo", "list", "--all", "--tag", "home", "--json")
        XCTAssertEqual(tagged.array().map { $0["title"] as? String }, ["Pay rent +home"], "--tag finds a +project")

        let plain = todo(titled: "Plain task", in: todos)
        XCTAssertEqual(plain["is_done"] as? Bool, true)
        XCTAssertEqual(plain["done_at"] as? String, doneWords[1] + "T00:00:00.000Z")
        XCTAssertEqual(plain["created_at"] as? String, doneWords[2] + "T00:00:00.000Z")

        let later = todo(titled: "Later thing", in: todos)
        XCTAssertEqual(later["priority"] as? String, "low")
        XCTAssertEqual(later["note"] as? String, "pri:D")

        let search = app.run("search", "업무", "--json")
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("회의록"), "+project words stay searchable: \(search.stdout)")
    }

    func testTodoTxtImportedTwiceAddsNothing() throws {
        let todoSh = try TodoTxtFolder(in: folder)
        todoSh("add", "first")
        todoSh("add", "second +p")
        todoSh("add", "second +p")
        todoSh("do", "1")
        app.onboard()
        let first = app.run("todo", "import", "--from", "todotxt", todoSh.todoFile)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "Added 3 to-dos; 0 already present.\n")
        let again = app.run("todo", "import", "--from", "todotxt", todoSh.todoFile, "--json")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.object()["added"] as? Int, 0)
        XCTAssertEqual(again.object()["already_present"] as? Int, 3)
        XCTAssertEqual(again.object()["ids"] as? [Int], [])
        let text = app.run("todo", "import", "--from", "todotxt", todoSh.todoFile)
        XCTAssertEqual(text.stdout, "Added 0 to-dos; 3 already present.\n")
        XCTAssertEqual(allTodos().count, 3, "two equal lines are two to-dos, each imported once")
    }

    func testMalformedTodoTxtImportsNothingAndNamesTheLine() throws {
        let good = try write("(A) fine\n", to: "good.txt")
        let bad = try write("(A) fine\nalso fine\n2026-13-45 bad creation date\n", to: "bad.txt")
        app.onboard()
        let result = app.run("todo", "import", "--from", "todotxt", good, bad)
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr,
                       "memoapp: \(bad):3: 2026-13-45 is not a date (the creation date); nothing was imported\n")
        let json = app.run("todo", "import", "--from", "todotxt", good, bad, "--json")
        XCTAssertEqual(json.status, 65)
        XCTAssertEqual(json.errorCode, "bad_input")
        XCTAssertEqual(json.stdout, "")
        let korean = app.run("todo", "import", "--from", "todotxt", bad, "--lang", "ko")
        XCTAssertEqual(korean.stderr,
                       "memoapp: \(bad):3: 2026-13-45은(는) 없는 날짜입니다 (만든 날짜). 아무것도 가져오지 않았습니다\n")

        let garbageDue = try write("one\ntwo\nthree\nPay due:someday\n", to: "due.txt")
        let due = app.run("todo", "import", "--from", "todotxt", garbageDue)
        XCTAssertEqual(due.status, 65)
        XCTAssertTrue(due.stderr.contains("\(garbageDue):4: due:someday is not a date"), due.stderr)

        let binary = folder.appending("binary.txt")
        try Data("ok\n".utf8 + [0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let notText = app.run("todo", "import", "--from", "todotxt", binary)
        XCTAssertEqual(notText.status, 65)
        XCTAssertTrue(notText.stderr.contains("\(binary):2: not UTF-8 text"), notText.stderr)
        XCTAssertEqual(allTodos().count, 0, "nothing was imported")
    }

    // MARK: Taskwarrior

    func testTaskwarriorExportImportsEveryField() throws {
        let task = try TaskwarriorFolder(in: folder)
        task("add", "Buy milk", "due:2099-12-01", "priority:H", "project:home", "+errand", "+shop")
        task("add", "회의록 작성 😀", "project:work.q4", "priority:L")
        task("add", "water plants", "due:2099-12-01", "recur:weekly")
        task("add", "to delete")
        task("add", "waiting one", "wait:2030-01-01")
        task("1", "annotate", "first note")
        task("1", "annotate", "두 번째 메모")
        task("2", "done")
        task("4", "delete")
        let export = try task.export()
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export)))
            as? [[String: Any]])
        let uuid = { (description: String) in
            exported.first { $0["description"] as? String == description && $0["status"] as? String != "recurring" }?["uuid"]
                as? String
        }

        app.onboard()
        let result = app.run("todo", "import", "--from", "taskwarrior", export, "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = result.object()
        XCTAssertEqual(report["added"] as? Int, 4, "\(report)")
        XCTAssertEqual(report["skipped"] as? Int, 2, "the deleted task and the recurring template, folded into its instance")
        XCTAssertEqual(report["already_present"] as? Int, 0)

        let todos = allTodos()
        XCTAssertEqual(Set(todos.compactMap { $0["title"] as? String }),
                       ["Buy milk", "회의록 작성 😀", "water plants", "waiting one"])
        // Into an empty home the search index is built at the end of the
        // import; the triggers that keep it in step are back afterwards.
        XCTAssertTrue(app.run("search", "회의", "--json").stdout.contains("작성"), "the imported to-dos are indexed")
        XCTAssertEqual(app.run("todo", "add", "after the import").status, 0)
        XCTAssertTrue(app.run("search", "after the", "--json").stdout.contains("import"), "a new to-do is indexed")
        XCTAssertEqual(app.run("doctor").status, 0, "the schema is what the migrations made")
        let milk = todo(titled: "Buy milk", in: todos)
        XCTAssertEqual(milk["uid"] as? String, uuid("Buy milk"))
        XCTAssertEqual(milk["priority"] as? String, "high")
        XCTAssertEqual(milk["tags"] as? [String], ["project:home", "errand", "shop"])
        XCTAssertEqual(milk["due_local"] as? String, "2099-12-01", "Taskwarrior's midnight is the date typed")
        let note = try XCTUnwrap(milk["note"] as? String)
        let noteLines = note.split(separator: "\n").map(String.init)
        XCTAssertEqual(noteLines.count, 2, note)
        XCTAssertTrue(noteLines[0].hasSuffix(" first note"), note)
        XCTAssertTrue(noteLines[1].hasSuffix(" 두 번째 메모"), note)
        let entry = try XCTUnwrap(exported.first { $0["description"] as? String == "Buy milk" }?["entry"] as? String)
        XCTAssertEqual(milk["created_at"] as? String, rfc3339(fromTaskwarrior: entry))

        let minutes = todo(titled: "회의록 작성 😀", in: todos)
        XCTAssertEqual(minutes["is_done"] as? Bool, true)
        XCTAssertEqual(minutes["priority"] as? String, "low")
        XCTAssertEqual(minutes["tags"] as? [String], ["project:work.q4"])
        let end = try XCTUnwrap(exported.first { $0["description"] as? String == "회의록 작성 😀" }?["end"] as? String)
        XCTAssertEqual(minutes["done_at"] as? String, rfc3339(fromTaskwarrior: end))

        let plants = todo(titled: "water plants", in: todos)
        XCTAssertTrue(plants["note"] is NSNull, "the rule is no longer kept in the note: \(plants)")
        let rule = try XCTUnwrap(plants["repeat"] as? [String: Any])
        XCTAssertEqual(rule["every"] as? Int, 1)
        XCTAssertEqual(rule["unit"] as? String, "week")
        XCTAssertEqual(rule["from"] as? String, "due")
        XCTAssertEqual(plants["due_local"] as? String, "2099-12-01")
        XCTAssertEqual(todo(titled: "waiting one", in: todos)["note"] as? String, "wait: 2030-01-01")
        XCTAssertEqual(todo(titled: "waiting one", in: todos)["is_done"] as? Bool, false)
    }

    func testTaskwarriorExportImportedTwiceAddsNothing() throws {
        let task = try TaskwarriorFolder(in: folder)
        task("add", "one")
        task("add", "two")
        let export = try task.export()
        app.onboard()
        XCTAssertEqual(app.run("todo", "import", "--from", "taskwarrior", export).stdout,
                       "Added 2 to-dos; 0 already present.\n")
        task("add", "three")
        task("1", "done")
        let again = app.run("todo", "import", "--from", "taskwarrior", try task.export(), "--json")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.object()["added"] as? Int, 1, "only the new task")
        XCTAssertEqual(again.object()["already_present"] as? Int, 2)
        XCTAssertEqual(allTodos().count, 3)
    }

    func testMalformedTaskwarriorExportImportsNothingAndNamesThePath() throws {
        let task = try TaskwarriorFolder(in: folder)
        task("add", "one")
        task("add", "two")
        let export = try String(contentsOfFile: task.export(), encoding: .utf8)
        var tasks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(export.utf8)) as? [[String: Any]])
        tasks[1]["description"] = 42
        let wrongType = folder.appending("wrong.json")
        try JSONSerialization.data(withJSONObject: tasks).write(to: URL(fileURLWithPath: wrongType))
        app.onboard()
        let result = app.run("todo", "import", "--from", "taskwarrior", wrongType)
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stderr, "memoapp: \(wrongType): $[1].description: expected a string, found an integer; "
            + "nothing was imported\n")

        tasks[1]["description"] = "two"
        tasks[0]["due"] = "tomorrow"
        try JSONSerialization.data(withJSONObject: tasks).write(to: URL(fileURLWithPath: wrongType))
        let badDate = app.run("todo", "import", "--from", "taskwarrior", wrongType, "--json")
        XCTAssertEqual(badDate.status, 65)
        XCTAssertEqual(badDate.errorCode, "bad_input")
        XCTAssertTrue(badDate.stderr.contains("$[0].due: 'tomorrow' is not a Taskwarrior date"), badDate.stderr)

        let truncated = try write(String(export.dropLast(20)), to: "truncated.json")
        let cut = app.run("todo", "import", "--from", "taskwarrior", truncated)
        XCTAssertEqual(cut.status, 65)
        XCTAssertTrue(cut.stderr.hasPrefix("memoapp: \(truncated): invalid JSON at line "), cut.stderr)

        let todoTxt = try write("Buy milk\n", to: "todo.txt")
        let wrongFormat = app.run("todo", "import", "--from", "taskwarrior", todoTxt)
        XCTAssertEqual(wrongFormat.status, 65, "a todo.txt file is no Taskwarrior export")
        XCTAssertEqual(allTodos().count, 0, "nothing was imported")
    }

    // MARK: Files, options and the gate

    func testMissingOrUnreadableFilesExit66AndImportNothing() throws {
        let good = try write("fine\n", to: "good.txt")
        app.onboard()
        let missing = app.run("todo", "import", "--from", "todotxt", good, folder.appending("nope.txt"))
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "memoapp: no such file: \(folder.appending("nope.txt"))\n")
        let directory = app.run("todo", "import", "--from", "todotxt", good, folder.path, "--json")
        XCTAssertEqual(directory.status, 66)
        XCTAssertEqual(directory.errorCode, "no_input")
        XCTAssertEqual(allTodos().count, 0)
    }

    func testFromIsRequiredAndChecked() throws {
        let good = try write("fine\n", to: "good.txt")
        app.onboard()
        let none = app.run("todo", "import", good)
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.hasPrefix("memoapp: missing --from todotxt|taskwarrior\n"), none.stderr)
        XCTAssertTrue(none.stderr.contains("usage: memoapp todo import FILE... --from todotxt|taskwarrior [--dry-run]"),
                      none.stderr)
        XCTAssertEqual(app.run("todo", "import", "--from", "csv", good).status, 64)
        XCTAssertEqual(app.run("todo", "import", "--from", "todotxt").status, 64, "no file")
        XCTAssertEqual(allTodos().count, 0)
    }

    func testDryRunCountsAndChangesNothing() throws {
        let file = try write("one\ntwo\n", to: "todo.txt")
        app.onboard()
        let dry = app.run("todo", "import", "--from", "todotxt", file, "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, "Would add 2 to-dos; 0 already present. Nothing was changed (--dry-run).\n")
        XCTAssertEqual(allTodos().count, 0)
        let json = app.run("todo", "import", "--from", "todotxt", file, "--dry-run", "--json").object()
        XCTAssertEqual(json["added"] as? Int, 2)
        XCTAssertEqual(json["dry_run"] as? Bool, true)
    }

    func testImportIsGatedUntilOnboardingAndCreatesNothing() throws {
        let file = try write("one\n", to: "todo.txt")
        for command in [["todo", "import", "--from", "todotxt", file], ["memo", "import", file]] {
            let result = app.run(command + ["--json"])
            XCTAssertEqual(result.status, 3, command.joined(separator: " "))
            XCTAssertEqual(result.errorCode, "onboarding_required")
        }
        app.onboard()
        XCTAssertEqual(allTodos().count, 0)
    }

    func testHelpRunsWithoutADataHome() {
        for command in [["todo", "import"], ["memo", "import"]] {
            let result = app.run(command + ["--help"])
            XCTAssertEqual(result.status, 0)
            XCTAssertTrue(result.stdout.contains("usage: memoapp " + command.joined(separator: " ")), result.stdout)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
    }

    /// `20261129T132404Z` as `2026-11-29T13:24:04Z`.
    private func rfc3339(fromTaskwarrior text: String) -> String {
        let c = Array(text)
        return String(c[0..<4]) + "-" + String(c[4..<6]) + "-" + String(c[6..<8]) + "T" + String(c[9..<11]) + ":"
            + String(c[11..<13]) + ":" + String(c[13..<15]) + ".000Z"
    }
}
