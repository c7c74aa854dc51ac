import Foundation
import TestSupport
import XCTest

/// The interactive pager on a real pseudo-terminal, driven through tmux.
final class OnboardPagerEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!
    var session: TmuxSession!

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.isAvailable, "tmux is not installed (scripts/test installs it)")
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        session = TmuxSession(folder: folder)
    }

    override func tearDown() {
        session?.kill()
    }

    private func startPager(_ arguments: String = "onboard") throws {
        try session.start(command: "\(Memoapp.binaryPath) --home \(app.home) \(arguments); echo EXIT=$?; stty -a | head -1 | grep -o -- '-icanon' ; sleep 30",
                          environment: ["LANG": "C.UTF-8", "TERM": "xterm"])
    }

    func testKeysMoveThroughThePagesAndEnterStartsOnTheLast() throws {
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") && $0.contains("Today's to-dos") }, session.screen())
        session.send(keys: ["Right"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○●○○") }, session.screen())
        session.send(keys: ["l"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○○●○") }, session.screen())
        session.send(keys: ["h"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○●○○") }, session.screen())
        session.send(keys: ["4"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○○○●") && $0.contains("Start") }, session.screen())
        session.send(keys: ["Enter"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") && $0.contains("completed") }, session.screen())
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["completed"] as? Bool, true)
    }

    func testQuitKeepsThePageAndTheNextRunResumesThere() throws {
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["n", "n"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○○●○") }, session.screen())
        session.send(keys: ["q"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") && $0.contains("page 3") }, session.screen())
        // The terminal is back in canonical mode: stty shows no "-icanon".
        XCTAssertFalse(session.screen().contains("-icanon"), session.screen())
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["current_page"] as? Int, 3)

        session.kill()
        session = TmuxSession(folder: folder)
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("○○●○") && $0.contains("Miss nothing") }, session.screen())
    }

    func testCtrlCLeavesTheTerminalRestored() throws {
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["p", "C-c"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=130") }, session.screen())
        XCTAssertFalse(session.screen().contains("-icanon"), session.screen())
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["completed"] as? Bool, false)
    }

    func testSkipFinishesFromTheFirstPageAndBareMemoappOpensThePagerInKorean() throws {
        try startPager("--lang ko")
        XCTAssertTrue(session.waitForScreen { $0.contains("오늘의 할일") }, session.screen())
        session.send(keys: ["s"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["completed"] as? Bool, true)
    }

    func testKeysTypedFasterThanTheScreenRedrawsAreAllHandled() throws {
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        // One send-keys call writes both characters at once, as a paste would.
        session.send(keys: ["nn"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○○●○") }, session.screen())
        session.send(keys: ["4\r"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") && $0.contains("completed") }, session.screen())
    }
}
