import MemoCore
import MemoKit
import VoiceMemos
@testable import MemoCLI
import XCTest

/// The application layer's and the modules' messages name no flag or command;
/// the command line adds its own way past each failure.
final class CommandHintsTests: XCTestCase {
    func testTheGateNamesTheOnboardCommand() {
        let app = TestApp()
        let run = app.run("todo", "list")
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stderr, "memoapp: finish the onboarding first: run 'memoapp onboard'\n")
        let korean = app.run("todo", "list", "--lang", "ko")
        XCTAssertEqual(korean.stderr, "memoapp: 먼저 온보딩을 마치세요: 'memoapp onboard'를 실행하세요\n")
    }

    func testStartBeforeTheLastPageNamesSkip() {
        let app = TestApp()
        let run = app.run("onboard", "start")
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stderr, "memoapp: Start is on the last page only; this is page 1 of 4. "
                       + "Use 'memoapp onboard skip' to finish early.\n")
        let json = app.run("onboard", "start", "--json").jsonError()
        XCTAssertEqual(json?.code, "invalid_state")
        XCTAssertTrue(json?.message.hasSuffix("'memoapp onboard skip' to finish early.") ?? false)
    }

    func testEveryHintTheLayersDeclareHasWordsHere() {
        for hint in [MemoError.Hint.completeOnboarding, .examineDataHome, .force, .skipOnboarding, .allowDuplicate,
                     .nameTheFormat, .chooseFormat] {
            for language in Language.allCases {
                let text = CommandHints.text(for: hint)?.text(in: language) ?? ""
                XCTAssertFalse(text.isEmpty, "\(hint.rawValue) in \(language)")
            }
        }
    }
}
