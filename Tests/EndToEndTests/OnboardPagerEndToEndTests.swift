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

    // MARK: - Resizing, Ctrl-Z, the keys shown and the end

    private func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    func testTheTextIsWrappedForTheWidthAndRedrawnWhenTheWindowChanges() throws {
        try session.startShell(typing: "\(Memoapp.binaryPath) --home \(app.home) onboard; echo EXIT=$?",
                               environment: ["LANG": "C.UTF-8", "TERM": "xterm"], columns: 40)
        let narrow = { (screen: String) in
            self.lines(screen).contains("  Everything you have to do, at a") && self.lines(screen).contains("  glance, anywhere")
        }
        XCTAssertTrue(session.waitForScreen(narrow), session.screen())
        session.resize(columns: 80)
        XCTAssertTrue(session.waitForScreen { self.lines($0).contains("  Everything you have to do, at a glance, anywhere") },
                      session.screen())
        XCTAssertTrue(lines(session.screen()).contains(
            "  [← p h PgUp] Previous   [Home] first   [End] last   [1-4] page"), session.screen())
        session.resize(columns: 40)
        XCTAssertTrue(session.waitForScreen(narrow), session.screen())
        // Every line of the narrow screen fits: nothing is cropped by the terminal.
        XCTAssertTrue(lines(session.screen()).contains("  [← p h PgUp] Previous   [Home] first"), session.screen())
        session.send(keys: ["q"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
    }

    func testKoreanTextIsWrappedByItsDisplayWidth() throws {
        try session.startShell(typing: "\(Memoapp.binaryPath) --home \(app.home) --lang ko onboard; echo EXIT=$?",
                               environment: ["LANG": "C.UTF-8", "TERM": "xterm"], columns: 40)
        XCTAssertTrue(session.waitForScreen { $0.contains("오늘의 할일") && $0.contains("[q Esc Ctrl-C]") }, session.screen())
        for line in lines(session.screen()) {
            // Hangul syllables take two columns; arrows and ASCII one.
            let columns = line.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
            XCTAssertLessThanOrEqual(columns, 40, line)
        }
        session.send(keys: ["q"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
    }

    func testCtrlZGivesTheTerminalBackAndFgRedrawsWithoutTheKeysTypedMeanwhile() throws {
        try session.startShell(typing: "\(Memoapp.binaryPath) --home \(app.home) onboard; echo EXIT=$?",
                               environment: ["LANG": "C.UTF-8", "TERM": "xterm"])
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["n"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○●○○") }, session.screen())
        session.send(keys: ["C-z"])
        XCTAssertTrue(session.waitForScreen { $0.contains("Stopped") }, session.screen())
        // The shell has the terminal in canonical mode again, and what is typed
        // now goes to the shell, not to the stopped pager.
        session.type("stty -a | grep -c -- -icanon; echo s n n")
        XCTAssertTrue(session.waitForScreen { self.lines($0).contains("s n n") }, session.screen())
        XCTAssertTrue(lines(session.screen()).contains("0"), session.screen())
        let status = app.run("onboard", "status", "--json").object()
        XCTAssertEqual(status["completed"] as? Bool, false)
        XCTAssertEqual(status["current_page"] as? Int, 2)

        session.type("fg")
        XCTAssertTrue(session.waitForScreen { $0.contains("○●○○") && $0.contains("Write down") }, session.screen())
        session.send(keys: ["End"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○○○●") }, session.screen())
        session.send(keys: ["Home"])
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["NPage"])
        XCTAssertTrue(session.waitForScreen { $0.contains("○●○○") }, session.screen())
        session.send(keys: ["PPage"])
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["q"])
        // The command line's own `echo` ran when the job stopped; ask again.
        XCTAssertTrue(session.waitForScreen { $0.contains("Stopped on page 1") }, session.screen())
        session.type("echo AFTER=$?")
        XCTAssertTrue(session.waitForScreen { $0.contains("AFTER=0") }, session.screen())
    }

    func testTheEndShowsTheMainScreen() throws {
        try startPager()
        XCTAssertTrue(session.waitForScreen { $0.contains("●○○○") }, session.screen())
        session.send(keys: ["s"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
        let screen = session.screen()
        XCTAssertTrue(screen.contains("Onboarding completed."), screen)
        XCTAssertTrue(screen.contains("Due today (0)"), screen)
        XCTAssertTrue(screen.contains("Latest memos"), screen)
        XCTAssertFalse(screen.contains("Run 'memoapp'"), screen)
    }
}
