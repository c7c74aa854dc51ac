import Foundation
import TestSupport
import XCTest

/// The built binary never hands a terminal a raw control character from
/// stored text: voice titles (which files bring in their tags) in lists,
/// shows and search, and to-dos read from another tool's file.
final class TerminalTextEndToEndTests: XCTestCase {
    /// A raw control character other than a line break or a tab.
    private func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter {
            ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || (0x7F...0x9F).contains($0)
                || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0)
        }
    }

    func testVoiceTitlesAreShownOnOneLineWithTheirControlCharactersVisible() {
        let voice = VoiceHome()
        voice.importFile(VoiceHome.fixture("beep.mp3"))
        // As an older memoapp took a title from a file's tags.
        sqlite3(voice.app.databasePath,
                "UPDATE voice_memos SET title = 'beep' || char(13) || char(10) || 'fake line' || char(27) || '[2J'")
        for arguments in [["search", "beep"], ["voice", "list"], ["voice", "show", "1"], []] {
            let result = voice.app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(rawControls(result.stdout), [], "\(arguments): \(result.stdout)")
        }
        let search = voice.app.run("search", "beep")
        XCTAssertTrue(search.stdout.contains("[beep]␍␊fake line␛[2J"), search.stdout)
        XCTAssertEqual(search.stdout.split(separator: "\n").count, 2, "the header and one row: \(search.stdout)")
        XCTAssertEqual(voice.app.run("voice", "rename", "1", "two\nlines").status, 64)
    }

    func testImportedToDosFromOtherToolsAreShownNotObeyed() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        let todoTxt = folder.appending("todo.txt")
        try Data("(A) evil \u{1B}]0;pwned\u{7} title +p\r(B) second\n".utf8).write(to: URL(fileURLWithPath: todoTxt))
        XCTAssertEqual(app.run("todo", "import", "--from", "todotxt", todoTxt).status, 0)
        let tasks = folder.appending("tasks.json")
        try Data(#"[{"uuid":"250fccc0-226d-43ba-8401-5f0ff587bb7f","status":"pending","description":"task \u001b[31mred\u202e"}]"#
            .utf8).write(to: URL(fileURLWithPath: tasks))
        XCTAssertEqual(app.run("todo", "import", "--from", "taskwarrior", tasks).status, 0)
        let memo = folder.appending("memo.md")
        try Data("# Title \u{1B}[2J\rbody \u{9B}1m\r".utf8).write(to: URL(fileURLWithPath: memo))
        XCTAssertEqual(app.run("memo", "import", memo).status, 0)
        XCTAssertEqual(app.run("todo", "list", "--json").array().count, 3, "CR alone ends a todo.txt line")
        for arguments in [["todo", "list"], ["todo", "show", "1"], ["todo", "show", "3"], ["memo", "list"],
                          ["memo", "show", "1"], []] {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(rawControls(result.stdout), [], "\(arguments): \(result.stdout)")
        }
        XCTAssertEqual(app.run("memo", "list", "--json").array().first?["title"] as? String, "Title \u{1B}[2J")
    }
}
