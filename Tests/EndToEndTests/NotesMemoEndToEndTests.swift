import Foundation
import TestSupport
import XCTest

/// `memoapp memo …` through the built binary: text in from arguments, stdin and
/// the editor, back out byte for byte; lists, pins, removal, the gate.
final class NotesMemoEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    private func addFromStdin(_ bytes: Data, _ arguments: [String] = [], file: StaticString = #filePath,
                              line: UInt = #line) -> Int {
        let result = app.run(["memo", "add", "--json"] + arguments, input: bytes)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.object(file: file, line: line)["id"] as? Int ?? -1
    }

    private func storedText(_ id: Int, file: StaticString = #filePath, line: UInt = #line) -> String? {
        app.run("memo", "show", String(id), "--json").object(file: file, line: line)["text"] as? String
    }

    /// An `$EDITOR` that runs `memoapp arguments…` on the same home (another
    /// terminal, while the editor is open), then saves `text`.
    private func editor(running arguments: [String]?, saving text: String) throws -> String {
        let path = folder.appending("editor-\(UUID().uuidString).sh")
        let meanwhile = arguments.map { "'\(Memoapp.binaryPath)' " + $0.map { "'\($0)'" }.joined(separator: " ") } ?? ":"
        try "#!/bin/sh\nMEMOAPP_HOME='\(app.home)' \(meanwhile) >/dev/null\nprintf '%s' '\(text)' > \"$1\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func testAnEditInTheEditorDoesNotOverwriteAChangeMadeMeanwhile() throws {
        app.onboard()
        XCTAssertEqual(app.run("memo", "add", "first").status, 0)
        let clash = try editor(running: ["memo", "edit", "1", "--text", "theirs"], saving: "mine")
        let refused = app.run(["memo", "edit", "1"], environment: ["EDITOR": clash])
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertEqual(storedText(1), "theirs", "the other change stays")
        XCTAssertTrue(refused.stderr.hasPrefix("memoapp: memo #1 was changed elsewhere while it was being edited; "
                                               + "nothing was saved. What you wrote is kept in \(app.home)/.memo-edit-"),
                      refused.stderr)
        let kept = try XCTUnwrap(refused.stderr.components(separatedBy: "kept in ").last?
            .trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "mine")
        let again = try editor(running: ["memo", "edit", "1", "--title", "their title"], saving: "mine again")
        let json = app.run(["memo", "edit", "1", "--json"], environment: ["EDITOR": again])
        XCTAssertEqual(json.status, 5, json.stderr)
        XCTAssertEqual(json.errorCode, "invalid_state")

        // Nothing in between: saved, and the editor's file is gone.
        let quiet = try editor(running: nil, saving: "mine after all")
        let saved = app.run(["memo", "edit", "1"], environment: ["EDITOR": quiet])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(storedText(1), "mine after all")
        // A pin meanwhile is no clash: the edit touches the text and title only.
        let pin = try editor(running: ["memo", "pin", "1"], saving: "pinned and edited")
        XCTAssertEqual(app.run(["memo", "edit", "1"], environment: ["EDITOR": pin]).status, 0)
        XCTAssertEqual(storedText(1), "pinned and edited")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.home).filter { $0.hasPrefix(".memo-edit-") }
        XCTAssertEqual(leftovers.count, 2, "only the two refused edits' texts are kept: \(leftovers)")
    }

    private func memoCount() -> Int {
        app.run("memo", "list", "--json").array().count
    }

    func testMemoCommandsAreGatedUntilOnboarding() {
        for command in [["memo", "add", "x"], ["memo", "list"], ["memo", "show", "1"], ["memo", "search", "x"],
                        ["memo", "pin", "1"], ["memo", "rm", "1"], ["memo", "edit", "1", "--text", "y"]] {
            let result = app.run(command + ["--json"])
            XCTAssertEqual(result.status, 3, command.joined(separator: " "))
            XCTAssertEqual(result.errorCode, "onboarding_required")
        }
        let piped = app.run(["memo", "add"], input: Data("from stdin".utf8))
        XCTAssertEqual(piped.status, 3)
        app.onboard()
        XCTAssertEqual(memoCount(), 0)
    }

    func testTextFromArgumentsIsJoinedAndShown() {
        app.onboard()
        let added = app.run("memo", "add", "대한민국", "만세", "--title", "나라", "--tag", "역사", "--pin", "--json")
        XCTAssertEqual(added.status, 0, added.stderr)
        let memo = added.object()
        XCTAssertEqual(memo["text"] as? String, "대한민국 만세")
        XCTAssertEqual(memo["title"] as? String, "나라")
        XCTAssertEqual(memo["tags"] as? [String], ["역사"])
        XCTAssertEqual(memo["is_pinned"] as? Bool, true)
        let shown = app.run("memo", "show", "1")
        XCTAssertTrue(shown.stdout.hasPrefix("#1 나라\n"), shown.stdout)
        XCTAssertTrue(shown.stdout.hasSuffix("\n\n대한민국 만세\n"), shown.stdout)
    }

    func testTextFromStdinComesBackByteForByte() {
        app.onboard()
        let samples = [
            "한글 🇰🇷👩‍👩‍👧 emoji\n",
            "line one\nline two\r\nthree\n\n\n",
            "NUL\0inside\0",
            "'single' \"double\" `back` \\ %_ ; DROP TABLE memos; --",
            "   spaces kept   ",
            "no trailing newline",
        ]
        for sample in samples {
            let id = addFromStdin(Data(sample.utf8))
            XCTAssertEqual(storedText(id).map { Array($0.utf8) }, Array(sample.utf8), sample.debugDescription)
        }
    }

    func testAMegabyteOfTextRoundTrips() {
        app.onboard()
        let text = String(repeating: "회의록 meeting notes 대한민국 🎉\n", count: 25_000)
        XCTAssertGreaterThan(text.utf8.count, 1_000_000)
        let id = addFromStdin(Data(text.utf8))
        XCTAssertEqual(storedText(id), text)
        let found = app.run("memo", "search", "🎉", "--json").array()
        XCTAssertEqual(found.first?["id"] as? Int, id)
    }

    func testEmptyOrNonUTF8InputAddsNothingAndSaysSo() {
        app.onboard()
        for input in [Data(), Data("  \n\t\n".utf8)] {
            let result = app.run(["memo", "add"], input: input)
            XCTAssertEqual(result.status, 65)
            XCTAssertTrue(result.stderr.contains("empty"), result.stderr)
        }
        let korean = app.run(["memo", "add", "--lang", "ko", "--json"], input: Data())
        XCTAssertEqual(korean.errorCode, "bad_input")
        XCTAssertTrue(korean.stderr.contains("비어"), korean.stderr)
        let invalid = app.run(["memo", "add"], input: Data([0x61, 0xFF, 0xFE, 0x62]))
        XCTAssertEqual(invalid.status, 65)
        XCTAssertTrue(invalid.stderr.contains("UTF-8"), invalid.stderr)
        XCTAssertEqual(memoCount(), 0)
    }

    /// Runs `memoapp arguments…` with a terminal for stdin (`script`), so
    /// that `memo add` opens `editor`; returns its exit status.
    private func runWithEditor(_ arguments: String, editor: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(Memoapp.binaryPath)' \(arguments)", "/dev/null"]
        var environment = app.environment
        environment["VISUAL"] = editor
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testOnATerminalAddOpensTheEditor() throws {
        app.onboard()
        // `script` gives memoapp a terminal for stdin; the "editor" writes the file.
        XCTAssertEqual(try runWithEditor("memo add --json", editor: "printf 'from the editor\\n' >"), 0)
        XCTAssertEqual(storedText(1), "from the editor", "the editor's final line break is dropped")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.home).filter { $0.hasPrefix(".memo-edit") }
        XCTAssertEqual(leftovers, [])
    }

    func testAMemoWrittenInTheEditorTakesItsHeadingAsTitle() throws {
        app.onboard()
        XCTAssertEqual(try runWithEditor("memo add", editor: "printf '# 주간 회의\\n\\n안건 세 가지\\n' >"), 0)
        XCTAssertEqual(app.run("memo", "show", "1", "--json").object()["title"] as? String, "주간 회의")
        XCTAssertEqual(storedText(1), "# 주간 회의\n\n안건 세 가지", "the text stays as written, heading included")
        XCTAssertEqual(try runWithEditor("memo add", editor: "printf 'no heading\\n' >"), 0)
        XCTAssertTrue(app.run("memo", "show", "2", "--json").object()["title"] is NSNull)
        XCTAssertEqual(try runWithEditor("memo add --title mine", editor: "printf '# theirs\\n' >"), 0)
        XCTAssertEqual(app.run("memo", "show", "3", "--json").object()["title"] as? String, "mine", "--title wins")
    }

    func testListIsPinnedFirstThenNewestAndSaysWhenEmpty() {
        app.onboard()
        XCTAssertEqual(app.run("memo", "list").stdout, "No memos yet.\n")
        XCTAssertEqual(app.run("memo", "list", "--lang", "ko").stdout, "메모가 아직 없습니다.\n")
        XCTAssertEqual(app.run("memo", "list", "--json").stdout, "[]\n")
        _ = app.run("memo", "add", "first", "--tag", "a")
        _ = app.run("memo", "add", "second")
        _ = addFromStdin(Data("\n제목 줄\n둘째 줄\n".utf8))
        XCTAssertEqual(app.run("memo", "pin", "2", "--json").object()["is_pinned"] as? Bool, true)
        let list = app.run("memo", "list", "--json").array()
        XCTAssertEqual(list.compactMap { $0["id"] as? Int }, [2, 3, 1])
        XCTAssertEqual(list[1]["preview"] as? String, "제목 줄")
        XCTAssertNil(list[0]["text"], "lists give a preview, not the text")
        XCTAssertEqual(app.run("memo", "list", "--pinned", "--json").array().compactMap { $0["id"] as? Int }, [2])
        XCTAssertEqual(app.run("memo", "list", "--tag", "A", "--json").array().compactMap { $0["id"] as? Int }, [1])
        XCTAssertEqual(app.run("memo", "list", "--tag", "zzz").stdout, "No matching memos.\n")
        let text = app.run("memo", "list").stdout
        let rows = text.split(separator: "\n")
        XCTAssertEqual(rows.first, "ID     WRITTEN           TITLE", text)
        XCTAssertTrue(rows.count > 1 && rows[1].hasPrefix(" 2  *  ") && rows[1].hasSuffix("second"), text)
        XCTAssertEqual(app.run("memo", "list", "--limit", "2", "--json").array().compactMap { $0["id"] as? Int }, [2, 3])
        XCTAssertEqual(app.run("memo", "list", "--limit", "1").stdout, rows.prefix(2).joined(separator: "\n") + "\n",
                       "the header and one row")
        XCTAssertEqual(app.run("memo", "list", "--limit", "-1").status, 64)
        XCTAssertEqual(app.run("memo", "unpin", "2", "--json").object()["is_pinned"] as? Bool, false)
        XCTAssertEqual(app.run("memo", "list", "--json").array().compactMap { $0["id"] as? Int }, [3, 2, 1])
    }

    func testEditWithOptionsAndWithTheEditor() {
        app.onboard()
        _ = app.run("memo", "add", "original", "--title", "t")
        let edited = app.run("memo", "edit", "1", "--text", "바뀐 내용", "--json").object()
        XCTAssertEqual(edited["text"] as? String, "바뀐 내용")
        XCTAssertEqual(edited["title"] as? String, "t")
        XCTAssertTrue(app.run("memo", "edit", "1", "--title", "", "--json").object()["title"] is NSNull)

        // No options: the editor gets the current text and its result is kept.
        // The file ends in a line break, so an appended line is a line of its
        // own, not the end of the last one; the text had none, so none is added.
        let appending = app.run(["memo", "edit", "1", "--json"],
                                environment: ["VISUAL": "printf '추가\\n' >>"])
        XCTAssertEqual(appending.status, 0, appending.stderr)
        XCTAssertEqual(storedText(1), "바뀐 내용\n추가")
        let untouched = app.run(["memo", "edit", "1"], environment: ["VISUAL": "true"])
        XCTAssertEqual(untouched.status, 0)
        XCTAssertTrue(untouched.stdout.contains("No changes"), untouched.stdout)
        let failing = app.run(["memo", "edit", "1"], environment: ["VISUAL": "false"])
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.contains("editor"), failing.stderr)
        let emptied = app.run(["memo", "edit", "1"], environment: ["VISUAL": ": >"])
        XCTAssertEqual(emptied.status, 65)
        XCTAssertEqual(storedText(1), "바뀐 내용\n추가")
        XCTAssertEqual(app.run("memo", "edit", "1", "--text", " ").status, 65)
        XCTAssertEqual(app.run("memo", "edit", "9", "--text", "x").status, 4)
    }

    func testUnknownIDsAreExit4AndRemovalIsAllOrNothing() {
        app.onboard()
        _ = app.run("memo", "add", "a")
        _ = app.run("memo", "add", "b")
        for command in [["show", "9"], ["pin", "9"], ["unpin", "9"], ["rm", "1", "9", "2"]] {
            let result = app.run(["memo"] + command + ["--json"])
            XCTAssertEqual(result.status, 4, command.joined(separator: " "))
            XCTAssertEqual(result.errorCode, "not_found")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(memoCount(), 2)
        let removed = app.run("memo", "rm", "1", "2", "--json").object()["removed"] as? [[String: Any]] ?? []
        XCTAssertEqual(removed.compactMap { $0["id"] as? Int }, [1, 2])
        XCTAssertEqual(removed.map { $0["text"] as? String }, ["a", "b"], "the removed memos, in full")
        XCTAssertEqual(memoCount(), 0)
        XCTAssertEqual(app.run("memo", "add", "c", "--json").object()["id"] as? Int, 3)
        XCTAssertEqual(app.run("memo", "rm", "3").stdout, "Removed memo #3\n")
    }

    func testTheMainScreenShowsTodayOverdueAndLatestMemos() {
        let gated = app.run("--json")
        XCTAssertEqual(gated.status, 3)
        app.onboard()
        _ = app.run("todo", "add", "late", "--due", "2020-01-01")
        _ = app.run("todo", "add", "now", "--due", "today")
        _ = app.run("todo", "add", "someday")
        for index in 1...7 { _ = app.run("memo", "add", "memo \(index)") }
        let screen = app.run("--json")
        XCTAssertEqual(screen.status, 0, screen.stderr)
        let notes = screen.object()["notes"] as? [String: Any] ?? [:]
        XCTAssertEqual((notes["overdue"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["late"])
        XCTAssertEqual((notes["due_today"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["now"])
        XCTAssertEqual(notes["open_todo_count"] as? Int, 3)
        XCTAssertEqual((notes["latest_memos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, [7, 6, 5, 4, 3])
        XCTAssertEqual(notes["memo_count"] as? Int, 7)
        let text = app.run().stdout
        XCTAssertTrue(text.contains("Overdue (1)"), text)
        XCTAssertTrue(text.contains("Due today (1)"), text)
        XCTAssertTrue(text.contains("memo 7"), text)
        XCTAssertFalse(text.contains("memo 2"), text)
        XCTAssertTrue(app.run("--lang", "ko").stdout.contains("오늘 할 일 (1)"))
    }
}
