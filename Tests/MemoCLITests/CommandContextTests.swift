import Foundation
import MemoCore
@testable import MemoCLI
import XCTest

/// What a command body sees: language, colour and output mode, decided once.
final class CommandContextTests: XCTestCase {
    private let bold = "\u{1B}[1m"

    private func pages(_ arguments: [String] = [], environment extra: [String: String] = [:],
                       terminal: Bool) -> AppRun {
        let app = TestApp()
        app.environment.merge(extra) { $1 }
        let streams = RecordingStreams()
        streams.isOutputTerminal = terminal
        return app.run(["onboard", "pages"] + arguments, streams: streams)
    }

    func testColourOnlyOnATerminal() {
        XCTAssertTrue(pages(terminal: true).stdout.contains(bold))
        XCTAssertFalse(pages(terminal: false).stdout.contains(bold))
    }

    func testNoColorAndTheFlagTurnColourOff() {
        XCTAssertFalse(pages(environment: ["NO_COLOR": "1"], terminal: true).stdout.contains(bold))
        XCTAssertFalse(pages(["--no-color"], terminal: true).stdout.contains(bold))
        // no-color.org: an empty NO_COLOR does not count.
        XCTAssertTrue(pages(environment: ["NO_COLOR": ""], terminal: true).stdout.contains(bold))
    }

    func testJSONHasNoColourEvenOnATerminal() {
        let run = pages(["--json"], terminal: true)
        XCTAssertFalse(run.stdout.contains("\u{1B}"))
        XCTAssertEqual(run.stdout.filter { $0 == "\n" }.count, 1, "one document")
    }

    func testTheEnvironmentChoosesTheLanguage() {
        XCTAssertTrue(pages(environment: ["MEMOAPP_LANG": "ko"], terminal: false).stdout.contains("오늘의 할일"))
        XCTAssertTrue(pages(environment: ["LANG": "ko_KR.UTF-8"], terminal: false).stdout.contains("오늘의 할일"))
        XCTAssertTrue(pages(environment: ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"], terminal: false).stdout
            .contains("Today's to-dos"))
        XCTAssertTrue(pages(["--lang", "en"], environment: ["MEMOAPP_LANG": "ko"], terminal: false).stdout
            .contains("Today's to-dos"))
    }

    func testJSONPagesAreAnArrayInTheChosenLanguage() throws {
        let run = pages(["--json", "--lang", "ko"], terminal: false)
        let pages = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(pages.map { $0["index"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(pages.first?["title"] as? String, "오늘의 할일")
    }

    func testTheHomeFlagBeatsTheEnvironment() {
        let app = TestApp()
        let elsewhere = app.directory.appending("elsewhere")
        XCTAssertEqual(app.run("onboard", "status", "--home", elsewhere).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/memoapp.db"))
        XCTAssertFalse(app.homeExists)
    }
}
