import Foundation
import TestSupport
import XCTest

/// Small things the command line says: bare feature commands list, a done
/// to-do done again says so, an imported voice memo's id once.
final class CommandWordingEndToEndTests: XCTestCase {
    private let home = VoiceHome()
    private var app: Memoapp { home.app }

    func testBareVoiceAndTimerListAsTheirListCommandsDo() {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "stand-up")
        XCTAssertEqual(app.run("timer", "start", "25m", "--label", "집중").status, 0)
        for feature in ["voice", "timer"] {
            let bare = app.run(feature, "--json")
            XCTAssertEqual(bare.status, 0, "\(feature): \(bare.stderr)")
            let listed = app.run(feature, "list", "--json")
            XCTAssertEqual(bare.array().map { $0["id"] as? Int }, listed.array().map { $0["id"] as? Int }, feature)
            XCTAssertEqual(bare.array().count, 1, feature)
            XCTAssertTrue(app.run(feature).stdout.contains(feature == "voice" ? "stand-up" : "집중"))
        }
        XCTAssertEqual(app.run("timer", "--all", "--json").array().count, 1)
    }

    func testDoneOnADoneToDoSaysAlreadyDone() {
        XCTAssertEqual(app.run("todo", "add", "a").status, 0)
        XCTAssertEqual(app.run("todo", "add", "b").status, 0)
        XCTAssertEqual(app.run("todo", "done", "1").stdout, "Done: 1 [x] a\n")
        let again = app.run("todo", "done", "1", "2")
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "Already done: 1 [x] a\nDone: 2 [x] b\n")
        XCTAssertEqual(app.run("--lang", "ko", "todo", "done", "2").stdout, "이미 완료: 2 [x] b\n")
    }

    func testVoiceImportNamesTheIdOnce() {
        let result = app.run("voice", "import", VoiceHome.fixture("tone-mono-16k.wav"))
        XCTAssertEqual(result.status, 0, result.stderr)
        // Before, the id came twice: "Imported voice memo 1:    1  tone-mono-16k".
        XCTAssertTrue(result.stdout.hasPrefix("Imported voice memo 1  tone-mono-16k  "), result.stdout)
    }

    func testAnUnknownCommandWithHelpIsAUsageErrorThatSuggestsTheNearest() {
        let unknown = app.run("calendar", "--help")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stdout, "", "not the root help")
        XCTAssertTrue(unknown.stderr.hasPrefix("memoapp: unknown command 'calendar'\n"), unknown.stderr)
        let typo = app.run("todo", "lsit")
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.hasPrefix("memoapp: unknown command 'lsit'; did you mean 'list'?\n"), typo.stderr)
        XCTAssertEqual(app.run("--json", "todo", "lsit").errorCode, "usage")
    }

    func testUniqueAbbreviationsRunTheirCommand() {
        XCTAssertEqual(app.run("todo", "ad", "milk").status, 0)
        XCTAssertEqual(app.run("tod", "li", "--json").array().map { $0["title"] as? String }, ["milk"])
        XCTAssertEqual(app.run("to", "list").status, 64, "to is todo or token")
        let ambiguous = app.run("t", "list")
        XCTAssertEqual(ambiguous.status, 64, "one letter is not enough")
        let timer = app.run("ti")
        XCTAssertEqual(timer.status, 0, "ti names timer alone")
    }
}
