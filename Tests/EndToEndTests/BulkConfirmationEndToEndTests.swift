import Foundation
import TestSupport
import XCTest

/// Asking before bulk destruction, on a real pseudo-terminal through tmux:
/// more than three items removed, or a trim that removes more than half of a
/// memo, asks first; `--yes` and the absence of a terminal do not ask.
final class BulkConfirmationEndToEndTests: XCTestCase {
    private var home: VoiceHome!
    private var session: TmuxSession!

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.isAvailable, "tmux is not installed (scripts/test installs it)")
        home = VoiceHome()
        session = TmuxSession(folder: home.folder)
        for title in ["a", "b", "c", "d", "e"] { XCTAssertEqual(home.app.run("todo", "add", title).status, 0) }
    }

    override func tearDown() {
        session?.kill()
    }

    private func start(_ arguments: String) throws {
        try session.start(command: "\(Memoapp.binaryPath) --home \(home.app.home) \(arguments); echo EXIT=$?; sleep 30",
                          environment: ["LANG": "C.UTF-8", "TERM": "xterm"])
    }

    private var todoCount: Int { home.app.run("todo", "list", "--json").array().count }

    func testRemovingFourAsksAndNoChangesNothing() throws {
        try start("todo rm 1 2 3 4")
        XCTAssertTrue(session.waitForScreen { $0.contains("Remove 4 to-dos? [y/N]") }, session.screen())
        session.send(keys: ["n", "Enter"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=5") }, session.screen())
        XCTAssertTrue(session.screen().contains("not confirmed; nothing was changed"), session.screen())
        XCTAssertEqual(todoCount, 5)
    }

    func testRemovingFourAsksAndYesRemoves() throws {
        try start("todo rm 1 2 3 4")
        XCTAssertTrue(session.waitForScreen { $0.contains("[y/N]") }, session.screen())
        session.send(keys: ["y", "Enter"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
        XCTAssertEqual(todoCount, 1)
    }

    func testThreeAreNotAskedAboutNorIsAnythingWithYes() throws {
        try start("todo rm 1 2 3 && \(Memoapp.binaryPath) --home \(home.app.home) todo rm 4 5 --yes")
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=0") }, session.screen())
        XCTAssertFalse(session.screen().contains("[y/N]"), session.screen())
        XCTAssertEqual(todoCount, 0)
    }

    func testATrimThatRemovesMoreThanHalfAsks() throws {
        home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        let frames = home.memos().first?["frames"] as? Int
        try start("voice trim 1 --end 0.1")
        XCTAssertTrue(session.waitForScreen { $0.contains("removes") && $0.contains("[y/N]") }, session.screen())
        session.send(keys: ["Enter"])
        XCTAssertTrue(session.waitForScreen { $0.contains("EXIT=5") }, session.screen())
        XCTAssertEqual(home.memos().first?["frames"] as? Int, frames, "an empty answer is no")
    }

    func testWithoutATerminalNothingIsAsked() {
        XCTAssertEqual(home.app.run("todo", "rm", "1", "2", "3", "4").status, 0)
        XCTAssertEqual(todoCount, 1)
    }
}
