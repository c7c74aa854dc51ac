import Foundation
import TestSupport
import XCTest

/// `memoapp todo …` through the built binary: every subcommand, JSON, exit
/// codes, all-or-nothing ids, the gate, and concurrent adds.
final class NotesTodoEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    private func onboarded() -> Memoapp {
        app.onboard()
        return app
    }

    /// Every to-do as JSON objects, open and done.
    private func allTodos(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let result = app.run("todo", "list", "--all", "--sort", "created", "--json")
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.array(file: file, line: line)
    }

    private func add(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> Int {
        let result = app.run(["todo", "add"] + arguments + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.object(file: file, line: line)["id"] as? Int ?? -1
    }

    func testEveryTodoCommandIsGatedUntilOnboardingAndChangesNothing() {
        let commands: [[String]] = [["todo", "add", "x"], ["todo", "list"], ["todo"], ["todo", "show", "1"],
                                    ["todo", "done", "1"], ["todo", "undo", "1"], ["todo", "rm", "1"],
                                    ["todo", "edit", "1", "--title", "y"], ["todo", "clear"]]
        for command in commands {
            let result = app.run(command + ["--json"])
            XCTAssertEqual(result.status, 3, command.joined(separator: " "))
            XCTAssertEqual(result.errorCode, "onboarding_required")
            XCTAssertEqual(result.stdout, "")
            let plain = app.run(command)
            XCTAssertEqual(plain.status, 3)
            XCTAssertTrue(plain.stderr.contains("memoapp onboard"), plain.stderr)
        }
        app.onboard()
        XCTAssertEqual(allTodos().count, 0, "the gated add added nothing")
    }

    func testAddShowAndListAsJSON() throws {
        let app = onboarded()
        let added = app.run("todo", "add", "우유", "사기", "🥛", "--due", "2099-12-31 18:30", "--priority", "high",
                            "--tag", "집", "--tag", "#shop", "--note", "2 L \"fresh\"", "--json").object()
        XCTAssertEqual(added["id"] as? Int, 1)
        XCTAssertEqual(added["title"] as? String, "우유 사기 🥛")
        XCTAssertEqual(added["priority"] as? String, "high")
        XCTAssertEqual(added["tags"] as? [String], ["집", "shop"])
        XCTAssertEqual(added["note"] as? String, "2 L \"fresh\"")
        XCTAssertEqual(added["due_at"] as? String, "2099-12-31T18:30:00.000Z", "TZ=UTC in tests")
        XCTAssertEqual(added["due_local"] as? String, "2099-12-31 18:30")
        XCTAssertEqual(added["due_has_time"] as? Bool, true)
        XCTAssertEqual(added["is_done"] as? Bool, false)
        XCTAssertEqual(added["is_overdue"] as? Bool, false)
        XCTAssertTrue(added["done_at"] is NSNull)
        XCTAssertNotNil((added["created_at"] as? String).flatMap(documentTime))

        let shown = app.run("todo", "show", "1", "--json").object()
        XCTAssertEqual(shown["title"] as? String, "우유 사기 🥛")
        XCTAssertEqual(shown["created_at"] as? String, added["created_at"] as? String)
        let list = app.run("todo", "list", "--json").array()
        XCTAssertEqual(list.map { $0["id"] as? Int }, [1])

        let text = app.run("todo", "add", "plain", "words")
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("2 [ ] plain words"), text.stdout)
        let detail = app.run("todo", "show", "1")
        XCTAssertTrue(detail.stdout.contains("#1 우유 사기 🥛"), detail.stdout)
        XCTAssertTrue(detail.stdout.contains("2 L \"fresh\""), detail.stdout)
    }

    func testDueDatesAcceptEveryFormAndADateAloneEndsTheDay() {
        let app = onboarded()
        for when in ["today", "tomorrow", "monday", "fri", "+3d", "+2w", "2030-01-02", "2030-01-02 07:05",
                     "오늘", "내일", "모레", "수요일", "금"] {
            let result = app.run("todo", "add", "t", "--due", when, "--json")
            XCTAssertEqual(result.status, 0, "\(when): \(result.stderr)")
        }
        let dated = app.run("todo", "add", "t", "--due", "2030-01-02", "--json").object()
        XCTAssertEqual(dated["due_at"] as? String, "2030-01-02T23:59:59.000Z")
        XCTAssertEqual(dated["due_local"] as? String, "2030-01-02")
        XCTAssertEqual(dated["due_has_time"] as? Bool, false)
        let seoul = app.run(["todo", "add", "t", "--due", "2030-01-02 09:00", "--json"],
                            environment: ["TZ": "Asia/Seoul"]).object()
        XCTAssertEqual(seoul["due_at"] as? String, "2030-01-02T00:00:00.000Z", "read in the local time zone")
    }

    func testABadWhenIsExit64WithExamplesAndAddsNothing() {
        let app = onboarded()
        for when in ["someday", "2026-02-30", "+3x", "25:00", "2026-12-25 24:00", "", "13pm", "내일 오후 13시"] {
            let result = app.run("todo", "add", "x", "--due", when)
            XCTAssertEqual(result.status, 64, when)
            XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), result.stderr)
            // One short line with a few examples; the help lists every form.
            let first = result.stderr.split(separator: "\n").first ?? ""
            XCTAssertLessThan(first.count, 140, result.stderr)
            XCTAssertTrue(first.contains("18:00") || first.contains("18:30") || first.contains("no date"), result.stderr)
            XCTAssertTrue(result.stderr.contains("usage: memoapp todo add"), result.stderr)
            XCTAssertTrue(result.stderr.contains("See 'memoapp todo add --help'"), result.stderr)
        }
        let korean = app.run("todo", "add", "x", "--due", "언젠가", "--lang", "ko", "--json")
        XCTAssertEqual(korean.status, 64)
        XCTAssertEqual(korean.errorCode, "usage")
        XCTAssertTrue(korean.stderr.contains("모레"), korean.stderr)
        XCTAssertEqual(korean.stdout, "")
        XCTAssertEqual(app.run("todo", "edit", "1", "--due", "nope").status, 64)
        XCTAssertEqual(app.run("todo", "add", "x", "--priority", "urgent").status, 64)
        XCTAssertEqual(app.run("todo", "add", "x", "--tag", "two words").status, 64)
        XCTAssertEqual(app.run("todo", "add").status, 64)
        XCTAssertEqual(app.run("todo", "add", "   ").status, 64)
        XCTAssertEqual(allTodos().count, 0)
    }

    func testListFiltersSortsAndSaysWhenEmpty() {
        let app = onboarded()
        XCTAssertEqual(app.run("todo", "list").stdout, "No open to-dos.\n")
        XCTAssertEqual(app.run("todo", "list", "--lang", "ko").stdout, "진행 중인 할 일이 없습니다.\n")
        XCTAssertEqual(app.run("todo", "list", "--json").stdout, "[]\n")
        let overdue = add("old", "--due", "2020-01-01", "--tag", "work", "--priority", "low")
        let today = add("now", "--due", "today", "--priority", "high")
        let later = add("later", "--due", "2099-01-01", "--tag", "work")
        let undated = add("whenever", "--priority", "medium")
        let finished = add("finished")
        _ = app.run("todo", "done", String(finished))

        func ids(_ arguments: String...) -> [Int] {
            app.run(["todo", "list"] + arguments + ["--json"]).array().compactMap { $0["id"] as? Int }
        }
        XCTAssertEqual(ids(), [overdue, today, later, undated])
        XCTAssertEqual(ids("--done"), [finished])
        XCTAssertEqual(ids("--all").count, 5)
        XCTAssertEqual(ids("--tag", "work"), [overdue, later])
        XCTAssertEqual(ids("--due", "overdue"), [overdue])
        XCTAssertEqual(ids("--due", "today"), [today])
        XCTAssertEqual(ids("--due", "week"), [overdue, today], "the week includes what is overdue")
        XCTAssertEqual(ids("--due-before", "2021-01-01"), [overdue])
        XCTAssertEqual(ids("--due-after", "2098-12-31"), [later])
        XCTAssertEqual(ids("--due-after", "2020-01-01", "--due-before", "2099-01-01"), [today])
        XCTAssertEqual(ids("--due-before", "2099-01-01 9am", "--tag", "work"), [overdue])
        XCTAssertEqual(app.run("todo", "list", "--due-before", "someday").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--due-after", "2099-01-01", "--due-before", "2000-01-01").stdout,
                       "No matching to-dos.\n")
        XCTAssertEqual(ids("--priority", "high"), [today])
        XCTAssertEqual(ids("--sort", "priority"), [today, undated, overdue, later])
        XCTAssertEqual(ids("--sort", "created"), [overdue, today, later, undated])
        XCTAssertEqual(ids("--limit", "2"), [overdue, today])
        XCTAssertEqual(ids("--all", "--sort", "created", "--limit", "1"), [overdue])
        XCTAssertEqual(app.run("todo", "list", "--limit", "0").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--limit", "x").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--limit", "2").stdout.split(separator: "\n").count, 3, "a header and two rows")
        XCTAssertEqual(app.run("todo", "list", "--all", "--done").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--due", "tomorrow").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--sort", "title").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--tag", "none-such").stdout, "No matching to-dos.\n")

        let text = app.run("todo", "list").stdout
        let rows = text.split(separator: "\n")
        XCTAssertEqual(rows.first, "ID     PRI     DUE               TITLE", text)
        // Overdue is said with a sign as well as in red; another year's date in full.
        XCTAssertTrue(rows.contains { $0.hasPrefix(" \(overdue)  !") && $0.contains("2020-01-01") && $0.hasSuffix("old  #work") },
                      text)
        XCTAssertTrue(rows.contains { $0.hasPrefix(" \(today)     high    today") }, text)
        XCTAssertFalse(text.contains("\u{1B}["), "no colour when stdout is not a terminal")
        XCTAssertEqual(app.run("todo").stdout, text, "bare 'todo' lists")
    }

    func testColourMarksOverdueAndTodayOnlyOnATerminalWithoutNoColor() throws {
        _ = onboarded()
        _ = add("old", "--due", "2020-01-01")
        _ = add("now", "--due", "today")
        _ = add("plain")
        let onTerminal = try runOnTerminal(["todo", "list"])
        XCTAssertTrue(onTerminal.contains("\u{1B}[31m"), onTerminal)
        XCTAssertTrue(onTerminal.contains("\u{1B}[33m"), onTerminal)
        XCTAssertFalse(try runOnTerminal(["todo", "list", "--no-color"]).contains("\u{1B}["))
        XCTAssertFalse(try runOnTerminal(["todo", "list"], extra: "NO_COLOR=1 ").contains("\u{1B}["))
    }

    func testDoneAndUndoActOnAllIDsOrNone() {
        let app = onboarded()
        let a = add("a")
        let b = add("b")
        let done = app.run("todo", "done", String(a), String(b), "--json")
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertEqual(done.array().map { $0["is_done"] as? Bool }, [true, true])
        XCTAssertEqual(app.run("todo", "undo", String(a)).stdout, "Reopened: 1 [ ] a\n")

        let before = allTodos()
        for command in ["done", "undo", "rm"] {
            let result = app.run("todo", command, String(a), "77", String(b), "--json")
            XCTAssertEqual(result.status, 4, command)
            XCTAssertEqual(result.errorCode, "not_found")
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.contains("77"), result.stderr)
            XCTAssertEqual(allTodos().map { $0["is_done"] as? Bool }, before.map { $0["is_done"] as? Bool })
            XCTAssertEqual(allTodos().count, 2)
        }
        let plain = app.run("todo", "show", "77")
        XCTAssertEqual(plain.status, 4)
        XCTAssertEqual(plain.stderr, "memoapp: no to-do with id 77\n")
        XCTAssertEqual(app.run("todo", "show", "77", "--lang", "ko").stderr, "memoapp: id 77인 할 일이 없습니다\n")
        XCTAssertEqual(app.run("todo", "done", "abc").status, 64)
        XCTAssertEqual(app.run("todo", "done", "0").status, 64)
        XCTAssertEqual(app.run("todo", "done").status, 64)
    }

    func testRemoveAndClearAndIDsAreNeverReused() {
        let app = onboarded()
        let ids = (1...5).map { add("t\($0)") }
        let removed = app.run("todo", "rm", String(ids[4]), "--json").object()["removed"] as? [[String: Any]]
        XCTAssertEqual(removed?.map { $0["id"] as? Int }, [ids[4]], "the removed to-do, in full")
        XCTAssertEqual(removed?.first?["title"] as? String, "t5")
        _ = app.run("todo", "done", String(ids[0]), String(ids[1]))
        let cleared = app.run("todo", "clear")
        XCTAssertEqual(cleared.stdout, "Removed 2 done to-dos.\n")
        XCTAssertEqual((app.run("todo", "clear", "--json").object()["removed"] as? [Any])?.count, 0)
        _ = app.run("todo", "done", String(ids[2]))
        XCTAssertEqual(app.run("todo", "clear", "--lang", "ko").stdout, "완료한 할 일 1개를 지웠습니다.\n")
        XCTAssertEqual(allTodos().compactMap { $0["id"] as? Int }, [ids[3]])
        XCTAssertEqual(add("new"), 6, "ids of removed to-dos are not given again")
    }

    func testEditChangesWhatItIsToldAndRefusesNothingOrBoth() {
        let app = onboarded()
        let id = String(add("old", "--tag", "a", "--tag", "b", "--priority", "low", "--note", "n", "--due", "today"))
        let edited = app.run("todo", "edit", id, "--title", "새 제목", "--untag", "a", "--tag", "c",
                             "--priority", "none", "--no-due", "--note", "", "--json")
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let todo = edited.object()
        XCTAssertEqual(todo["title"] as? String, "새 제목")
        XCTAssertEqual(todo["tags"] as? [String], ["b", "c"])
        XCTAssertTrue(todo["priority"] is NSNull)
        XCTAssertTrue(todo["due_at"] is NSNull)
        XCTAssertTrue(todo["note"] is NSNull)
        XCTAssertEqual(app.run("todo", "edit", id).status, 64, "nothing to change")
        XCTAssertEqual(app.run("todo", "edit", id, "--due", "today", "--no-due").status, 64)
        XCTAssertEqual(app.run("todo", "edit", "99", "--title", "x").status, 4)
        XCTAssertEqual(app.run("todo", "show", id, "--json").object()["title"] as? String, "새 제목")
    }

    func testHelpAnswersWithoutTouchingTheDataHome() {
        for path in [["todo"], ["todo", "add"], ["todo", "list"], ["todo", "edit"], ["todo", "clear"]] {
            let result = app.run(path + ["--help"])
            XCTAssertEqual(result.status, 0)
            XCTAssertTrue(result.stdout.contains("usage: memoapp " + path.joined(separator: " ")), result.stdout)
        }
        XCTAssertTrue(app.run("todo", "add", "--help").stdout.contains("모레"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
    }

    func testFourProcessesAdding250EachLoseNothing() throws {
        let app = onboarded()
        // Each worker is a shell loop, so the four run at once without
        // test-runner threads in between.
        var workers: [Process] = []
        for worker in 0..<4 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "i=0; while [ $i -lt 250 ]; do \"$0\" todo add \"w\(worker)-$i\" >/dev/null "
                + "|| exit 1; i=$((i+1)); done", Memoapp.binaryPath]
            process.environment = app.environment
            try process.run()
            workers.append(process)
        }
        for process in workers {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let titles = allTodos().compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.count, 1000)
        let expected = Set((0..<4).flatMap { worker in (0..<250).map { "w\(worker)-\($0)" } })
        XCTAssertEqual(Set(titles), expected)
        let ids = allTodos().compactMap { $0["id"] as? Int }
        XCTAssertEqual(Set(ids).count, 1000)
    }

    /// Runs memoapp under `script`, which gives it a pseudo-terminal for stdout.
    private func runOnTerminal(_ arguments: [String], extra: String = "") throws -> String {
        let command = extra + ([Memoapp.binaryPath] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        // The test runner's own environment may say NO_COLOR; this test decides.
        process.environment = app.environment.filter { $0.key != "NO_COLOR" }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }
}
