import Foundation
@testable import MemoCLI
import XCTest

/// What memoapp prints for people never carries a raw control character from
/// stored text, on any path, while --json keeps the text exactly (escaped as
/// JSON escapes it); and titles are one line.
final class HumanTextTests: XCTestCase {
    private var app: TestApp!
    private let evil = "evil \u{1B}[2J\u{1B}]0;pwned\u{7} title"

    override func setUp() {
        app = TestApp()
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
    }

    /// Control characters other than a line break, a tab, and memoapp's own
    /// SGR codes (which a pipe never gets: colour is off).
    private func assertClean(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
        XCTAssertTrue(raw.isEmpty, "raw control characters \(raw.map { String($0.value, radix: 16) }) in: \(text)",
                      file: file, line: line)
    }

    func testAToDoTitleIsShownNotObeyedInEveryView() {
        XCTAssertEqual(app.run("todo", "add", evil, "--note", "note \u{9B}2J\nsecond line").status, 0)
        for arguments in [["todo", "show", "1"], ["todo", "list"], ["search", "evil"], ["todo", "done", "1"],
                          ["todo", "list", "--all"], ["export", "-o", app.directory.appending("x.json")]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            assertClean(run.stdout)
        }
        let show = app.run("todo", "show", "1")
        XCTAssertTrue(show.stdout.contains("evil ␛[2J␛]0;pwned␇ title"), show.stdout)
        XCTAssertTrue(show.stdout.contains("note <U+009B>2J\nsecond line"), show.stdout)
    }

    func testJSONKeepsTheTextExactly() throws {
        XCTAssertEqual(app.run("todo", "add", evil).status, 0)
        let run = app.run("todo", "show", "1", "--json")
        XCTAssertEqual(run.jsonObject()["title"] as? String, evil)
        XCTAssertTrue(run.stdout.contains("\\u001b[2J"), run.stdout)
    }

    func testTheMainScreenAndMemosShowControlCharacters() {
        XCTAssertEqual(app.run("memo", "add", "--title", "\u{1B}[31mred", "body \u{202E}txt.exe").status, 0)
        XCTAssertEqual(app.run("todo", "add", "due \u{7}today", "--due", "today").status, 0)
        for arguments in [[], ["memo", "list"], ["memo", "show", "1"], ["search", "body"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            assertClean(run.stdout)
        }
        XCTAssertTrue(app.run("memo", "show", "1").stdout.contains("body <U+202E>txt.exe"))
    }

    func testATimerLabelFromTheDatabaseIsShownNotObeyed() throws {
        XCTAssertEqual(app.run("timer", "start", "5m", "--label", "tea").status, 0)
        let database = try app.openDatabase()
        try database.execute("UPDATE timers SET label = ? WHERE id = 1", "tea\u{1B}[2J\r\nlater")
        for arguments in [["timer", "list"], ["timer", "status", "1"], []] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            assertClean(run.stdout)
        }
    }

    func testTheLiveTimerLineSendsOnlyMemoappsOwnCodes() throws {
        XCTAssertEqual(app.run("timer", "start", "1s", "--label", "tea").status, 0)
        let database = try app.openDatabase()
        try database.execute("UPDATE timers SET label = ? WHERE id = 1", "tea\u{1B}[2J\u{9B}1m\r")
        let streams = RecordingStreams()
        streams.isOutputTerminal = true
        streams.terminalWidth = 80
        let run = app.run(["timer", "wait", "1"], streams: streams)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("tea␛[2J<U+009B>1m␍"), run.stdout)
        // Every ESC starts one of the live line's codes or a colour.
        let own = ["\u{1B}[?25l", "\u{1B}[2K", "\u{1B}[?25h", "\u{1B}[36m", "\u{1B}[0m"]
        var rest = run.stdout
        for code in own { rest = rest.replacingOccurrences(of: code, with: "") }
        XCTAssertFalse(rest.contains("\u{1B}") || rest.unicodeScalars.contains { (0x80...0x9F).contains($0.value) },
                       rest.debugDescription)
        XCTAssertTrue(run.stdout.contains("\r"), "the line is redrawn in place")
    }

    func testMessagesOnStderrShowTheNamesTheyQuote() {
        let run = app.run("todo", "import", "--from", "todotxt", "no\u{1B}[2Jsuch\nfile.txt")
        XCTAssertEqual(run.status, 66)
        XCTAssertTrue(run.stderr.contains("no␛[2Jsuch␊file.txt"), run.stderr)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)")
        assertClean(run.stderr)
    }

    func testTitlesRefuseLineBreaks() {
        for title in ["line1\nline2", "a\rb", "a\u{2028}b", "a\u{85}b"] {
            let todo = app.run("todo", "add", title)
            XCTAssertEqual(todo.status, 64, "\(title.debugDescription): \(todo.stderr)")
            XCTAssertEqual(app.run("memo", "add", "--title", title, "text").status, 64, title.debugDescription)
        }
        XCTAssertEqual(app.run("todo", "add", "ok").status, 0)
        XCTAssertEqual(app.run("todo", "edit", "1", "--title", "x\ny").status, 64)
        XCTAssertEqual(app.run("memo", "add", "multi\nline text is fine").status, 0)
        XCTAssertEqual(app.run("memo", "edit", "1", "--title", "x\ny").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--json").stdout.contains("x\\ny"), false)
    }
}
