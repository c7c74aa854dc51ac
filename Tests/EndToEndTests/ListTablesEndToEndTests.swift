import Foundation
import TestSupport
import XCTest

/// Lists as tables on a real terminal (tmux) of 40 and 120 columns, with
/// Korean titles: columns line up by display width and titles are shortened
/// with … instead of wrapping.
final class ListTablesEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!
    var session: TmuxSession?

    private let koreanTitle = "우유 사기와 빵 사기, 그리고 달걀 한 판과 사과 다섯 개"
    private let englishTitle = "Call the plumber about the kitchen sink leak before Friday"

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.isAvailable, "tmux is not installed (scripts/test installs it)")
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", koreanTitle, "--due", "tomorrow", "--priority", "high", "--tag", "장보기").status, 0)
        XCTAssertEqual(app.run("todo", "add", englishTitle, "--due", "2020-01-01").status, 0)
        XCTAssertEqual(app.run("todo", "add", "짧은 일").status, 0)
    }

    override func tearDown() {
        session?.kill()
    }

    /// Columns on the screen, counted independently of memoapp: Hangul and
    /// CJK take two, the rest of this test's text one.
    private func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            let isWide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xFF00...0xFF60).contains(value)
            return width + (isWide ? 2 : 1)
        }
    }

    /// The lines `arguments` print on a terminal `width` columns wide.
    private func screenLines(_ arguments: String, width: Int) throws -> [Substring] {
        session?.kill()
        let session = TmuxSession(folder: folder)
        self.session = session
        try session.startShell(typing: "\(Memoapp.binaryPath) --home \(app.home) \(arguments); echo EXIT=$?",
                               environment: ["LANG": "C.UTF-8", "TERM": "xterm"], columns: width)
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
        let lines = session.screen().split(separator: "\n").map { line in
            Substring(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("ID") }),
              let end = lines.firstIndex(where: { $0.hasPrefix("EXIT=0") }) else {
            XCTFail("no table in\n\(session.screen())")
            return []
        }
        return Array(lines[start..<end])
    }

    /// Where the title column starts, in screen columns, for each line.
    private func titleColumn(of line: Substring, title: Substring) -> Int? {
        line.range(of: title).map { columns(line[..<$0.lowerBound]) }
    }

    func testOn120ColumnsEveryColumnIsShownAndTitlesAreWhole() throws {
        let lines = try screenLines("todo list", width: 120)
        XCTAssertEqual(lines.count, 4, "\(lines)")
        XCTAssertEqual(lines[0], "ID     PRI     DUE               TITLE")
        let titleStart = titleColumn(of: lines[0], title: "TITLE")
        XCTAssertTrue(lines[1].hasPrefix(" 2  !          2020-01-01"), String(lines[1]))
        XCTAssertEqual(titleColumn(of: lines[1], title: Substring(englishTitle)), titleStart)
        XCTAssertTrue(lines[2].hasPrefix(" 1     high    tomorrow"), String(lines[2]))
        XCTAssertEqual(titleColumn(of: lines[2], title: Substring(koreanTitle)), titleStart)
        XCTAssertTrue(lines[2].hasSuffix("#장보기"), String(lines[2]))
        XCTAssertFalse(lines.joined().contains("…"))
    }

    func testOn40ColumnsTitlesEndInAnEllipsisAndNothingWraps() throws {
        let lines = try screenLines("todo list", width: 40)
        XCTAssertEqual(lines.count, 4, "a wrapped row would add a line: \(lines)")
        XCTAssertEqual(lines[0], "ID     DUE               TITLE", "the priority makes way for the title")
        for line in lines {
            XCTAssertLessThanOrEqual(columns(line), 40, String(line))
        }
        XCTAssertTrue(lines[1].hasSuffix("…") && lines[1].contains("Call the"), String(lines[1]))
        XCTAssertTrue(lines[2].hasSuffix("…") && lines[2].contains("우유 사기와"), String(lines[2]))
        XCTAssertTrue(lines[3].hasSuffix("짧은 일"), String(lines[3]))
        let titleStart = titleColumn(of: lines[0], title: "TITLE")
        XCTAssertEqual(titleColumn(of: lines[2], title: "우유"), titleStart)
        XCTAssertEqual(titleColumn(of: lines[3], title: "짧은"), titleStart)
    }

    func testKoreanHeadersAndDatesLineUpByDisplayWidth() throws {
        for width in [40, 120] {
            let lines = try screenLines("--lang ko todo list", width: width)
            XCTAssertEqual(lines.count, 4, "\(lines)")
            XCTAssertTrue(lines[0].hasPrefix("ID"), String(lines[0]))
            XCTAssertTrue(lines[0].contains("마감") && lines[0].hasSuffix("제목"), String(lines[0]))
            XCTAssertTrue(lines[2].contains("내일"), String(lines[2]))
            let titleStart = titleColumn(of: lines[0], title: "제목")
            XCTAssertEqual(titleColumn(of: lines[2], title: "우유"), titleStart, "width \(width)")
            XCTAssertEqual(titleColumn(of: lines[3], title: "짧은"), titleStart, "width \(width)")
            for line in lines {
                XCTAssertLessThanOrEqual(columns(line), width, String(line))
            }
        }
    }

    func testInAPipeNothingIsShortenedAndTheHeaderComesFirst() {
        let text = app.run("todo", "list").stdout
        XCTAssertTrue(text.hasPrefix("ID     PRI     DUE               TITLE\n"), text)
        XCTAssertTrue(text.contains(koreanTitle + "  #장보기"), text)
        let narrow = app.run(["todo", "list"], environment: ["COLUMNS": "40"]).stdout
        XCTAssertFalse(narrow.contains(koreanTitle), "COLUMNS asks for a width in a pipe too")
        XCTAssertTrue(narrow.contains("…"), narrow)
    }

    func testTheMainScreenAndTheTimerListCutTheirItemLinesToo() {
        XCTAssertEqual(app.run("todo", "add", koreanTitle + " 오늘", "--due", "today").status, 0)
        XCTAssertEqual(app.run("memo", "add", "회의록 초안: 다음 주 화요일까지 예산 검토와 일정 정리를 끝낼 것").status, 0)
        XCTAssertEqual(app.run("timer", "start", "25m", "--label", "아주 긴 이름의 집중 시간 타이머입니다").status, 0)
        for arguments in [["--lang", "ko"], ["--lang", "ko", "timer", "list"]] {
            let whole = app.run(arguments).stdout
            XCTAssertTrue(whole.contains("예산 검토와 일정 정리를 끝낼 것") || whole.contains("타이머입니다"),
                          "in a pipe nothing is cut: \(whole)")
            let narrow = app.run(arguments, environment: ["COLUMNS": "40"]).stdout
            let items = narrow.split(separator: "\n").filter { $0.contains("…") }
            XCTAssertFalse(items.isEmpty, narrow)
            for line in items { XCTAssertLessThanOrEqual(columns(line), 40, String(line)) }
            XCTAssertFalse(narrow.contains("타이머입니다") || narrow.contains("끝낼 것"), narrow)
        }
    }

    func testColourAlwaysColoursAPipeAndNeverNothing() {
        let always = app.run("todo", "list", "--color=always").stdout
        XCTAssertTrue(always.contains("\u{1B}[1mID"), "the header is bold: \(always)")
        XCTAssertTrue(always.contains("\u{1B}[31m"), "overdue in red")
        XCTAssertFalse(app.run("todo", "list", "--color=never").stdout.contains("\u{1B}"))
        XCTAssertEqual(app.run("todo", "list", "--color=rainbow").status, 64)
    }
}
