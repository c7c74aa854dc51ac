import Foundation
import TestSupport
import XCTest

/// The progress bar on a real terminal (tmux) of 40 and 120 columns: shown
/// during an import long enough to need it (100,000 to-dos: several seconds
/// on a debug build, where 20,000 had come to take less than the second
/// before the bar shows), within the width, in the invocation's language, and gone without
/// a trace, cursor shown, when the import ends or is stopped by Ctrl-C.
/// Piped, nothing of it is written.
final class ProgressBarEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var session: TmuxSession?
    /// An export of `itemCount` to-dos.
    var document: String!
    static let itemCount = 100_000

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.isAvailable, "tmux is not installed (scripts/test installs it)")
        folder = TemporaryDirectory()
        let source = Memoapp(home: folder.appending("source"))
        source.onboard()
        XCTAssertEqual(source.run("todo", "add", "장보기 목록 정리하기").status, 0)
        let exported = source.run("export")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let todo = try XCTUnwrap((root["todos"] as? [[String: Any]])?.first)
        root["todos"] = (1...Self.itemCount).map { index -> [String: Any] in
            var copy = todo
            copy["id"] = index
            copy["uid"] = UUID().uuidString.lowercased()
            copy["title"] = "할 일 \(index)"
            return copy
        }
        var lastIDs = try XCTUnwrap(root["last_ids"] as? [String: Any])
        lastIDs["todos"] = Self.itemCount
        root["last_ids"] = lastIDs
        document = folder.appending("export.json")
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: document))
    }

    override func tearDown() {
        session?.kill()
    }

    private func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Columns on the screen, counted independently of memoapp (Hangul two).
    private func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
    }

    /// The shell's `EXIT=N` line (not the command typed, which holds `EXIT=$?`).
    private func exitStatus(_ screen: String) -> Int? {
        lines(screen).lazy.compactMap { $0.hasPrefix("EXIT=") ? Int($0.dropFirst(5)) : nil }.first
    }

    private func barLine(_ screen: String) -> String? {
        lines(screen).first { $0.hasPrefix("[") && $0.contains("%") }
    }

    /// Starts an import into a new onboarded home on a `width`-column terminal
    /// and waits for the bar; returns it.
    private func startImport(width: Int, language: String) throws -> String? {
        let target = Memoapp(home: folder.appending("target-\(width)-\(language)"))
        target.onboard()
        let session = TmuxSession(folder: folder)
        self.session = session
        try session.startShell(typing: "\(Memoapp.binaryPath) --home \(target.home) --lang \(language) import \(document!); "
                                   + "echo EXIT=$?",
                               environment: ["LANG": "C.UTF-8", "TERM": "xterm"], columns: width)
        XCTAssertTrue(session.waitForScreen(timeout: 60) { self.barLine($0) != nil || self.exitStatus($0) != nil }, session.screen())
        return barLine(session.screen())
    }

    private func checkFinishedCleanly(exitCode: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard let session else { return }
        XCTAssertTrue(session.waitForScreen(timeout: 120) { self.exitStatus($0) != nil }, session.screen(),
                      file: file, line: line)
        let screen = session.screen()
        XCTAssertEqual(exitStatus(screen), exitCode, screen, file: file, line: line)
        XCTAssertNil(barLine(screen), "no bar left behind:\n\(screen)", file: file, line: line)
        XCTAssertFalse(screen.contains("%"), "no figure left behind:\n\(screen)", file: file, line: line)
        XCTAssertTrue(session.isCursorVisible, "the cursor is shown again", file: file, line: line)
    }

    func testOn40ColumnsTheKoreanBarFitsAndLeavesNothing() throws {
        let bar = try XCTUnwrap(try startImport(width: 40, language: "ko"), "no bar during a long import")
        XCTAssertLessThanOrEqual(columns(bar), 39, bar)
        XCTAssertTrue(bar.hasSuffix("가져오는 중"), bar)
        XCTAssertFalse(session!.isCursorVisible, "the cursor is hidden while the bar is drawn")
        checkFinishedCleanly(exitCode: 0)
        XCTAssertTrue(lines(session!.screen()).contains("빈 데이터 폴더에 복원했습니다 (id 유지):"),
                      "the report's first line is whole where the bar was: \(session!.screen())")
    }

    func testOn120ColumnsTheBarIsWholeAndLeavesNothing() throws {
        let bar = try XCTUnwrap(try startImport(width: 120, language: "en"), "no bar during a long import")
        XCTAssertTrue(bar.hasPrefix("[") && bar.dropFirst(29).hasPrefix("]"), "a bar of 30 columns: \(bar)")
        XCTAssertTrue(bar.hasSuffix("% importing"), bar)
        checkFinishedCleanly(exitCode: 0)
    }

    func testAResizeIsFollowedAtTheNextFrame() throws {
        let wide = try XCTUnwrap(try startImport(width: 120, language: "en"), "no bar during a long import")
        XCTAssertGreaterThan(columns(wide), 40, wide)
        session!.resize(columns: 40)
        XCTAssertTrue(session!.waitForScreen { self.barLine($0).map { self.columns($0) <= 39 } ?? false }, session!.screen())
        checkFinishedCleanly(exitCode: 0)
    }

    func testCtrlCErasesTheBarAndShowsTheCursor() throws {
        _ = try XCTUnwrap(try startImport(width: 80, language: "en"), "no bar during a long import")
        session!.send(keys: ["C-c"])
        // bash drops the rest of a command line whose command died of SIGINT:
        // the status is asked for at the next prompt.
        XCTAssertTrue(session!.waitForScreen { self.lines($0).last { !$0.isEmpty } == "$" }, session!.screen())
        session!.type("echo EXIT=$?")
        checkFinishedCleanly(exitCode: 130)
    }

    func testCtrlZErasesTheBarAndFgBringsItBack() throws {
        _ = try XCTUnwrap(try startImport(width: 80, language: "en"), "no bar during a long import")
        let session = try XCTUnwrap(self.session)
        session.send(keys: ["C-z"])
        XCTAssertTrue(session.waitForScreen { $0.contains("Stopped") }, session.screen())
        XCTAssertNil(barLine(session.screen()), "no bar left while stopped:\n\(session.screen())")
        XCTAssertTrue(session.isCursorVisible, "the shell gets its cursor back")
        session.type("fg")
        XCTAssertTrue(session.waitForScreen(timeout: 120) {
            self.barLine($0) != nil || $0.contains("Restored into an empty data home")
        }, session.screen())
        XCTAssertTrue(session.waitForScreen(timeout: 120) { $0.contains("Restored into an empty data home") }, session.screen())
        XCTAssertNil(barLine(session.screen()), session.screen())
        XCTAssertFalse(session.screen().contains("%"), session.screen())
        XCTAssertTrue(session.isCursorVisible)
    }

    func testPipedNothingOfTheBarIsWritten() {
        let target = Memoapp(home: folder.appending("piped"))
        target.onboard()
        let result = target.run("import", document)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "stderr is not a terminal: no bar")
        XCTAssertEqual(result.stdout, """
            Restored into an empty data home (ids kept):
              to-dos: \(Self.itemCount) added, 0 already present
              memos: 0 added, 0 already present
              voice memos: 0 added, 0 already present
              timers: 0 added, 0 already present

            """)
    }
}
