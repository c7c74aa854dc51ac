import Foundation
import MemoCore
@testable import MemoKit
import Notes
import Onboarding
import TestSupport
import XCTest

/// The ids, titles and tags shell completion is offered, read from a real
/// data home: which items each source gives, in what order, cleaned to one
/// line, and nothing at all where the data may not be read yet.
final class CompletionCandidatesTests: XCTestCase {
    private struct Clock: WallClock {
        func now() -> Timestamp { Timestamp(secondsSince1970: 1_800_000_000) }
    }

    private let folder = TemporaryDirectory()
    private var workspace: Workspace!

    override func setUpWithError() throws {
        workspace = Workspace(home: DataHome(path: folder.appending("home")), clock: Clock())
    }

    override func tearDown() {
        workspace = nil
    }

    private func onboard() throws {
        _ = try workspace.onboardingStore().apply(.skip, at: Clock().now())
    }

    private func words(_ source: CompletionCandidates.Source) -> [String] {
        CompletionCandidates.candidates(source, in: workspace.home).map { $0.description.isEmpty ? $0.word : "\($0.word) \($0.description)" }
    }

    func testEachSourceGivesItsItemsNewestFirstWithTitles() throws {
        try onboard()
        let todos = try workspace.todoStore()
        _ = try todos.add(NewTodo(title: "우유 사기", note: nil, priority: nil, tags: ["home", "shop"], due: nil))
        _ = try todos.add(NewTodo(title: "Call mum", note: nil, priority: nil, tags: ["home"], due: nil))
        _ = try todos.add(NewTodo(title: "Pay rent", note: nil, priority: nil, tags: [], due: nil))
        _ = try todos.markDone(ids: [2])
        _ = try workspace.memoStore().add(NewMemo(text: "first line\nsecond", title: nil, tags: ["work"]))
        _ = try workspace.timerStore().start(duration: 300, label: "집중")
        _ = try workspace.timerStore().start(duration: nil, label: nil)

        XCTAssertEqual(words(.todos), ["3 Pay rent", "2 Call mum", "1 우유 사기"])
        XCTAssertEqual(words(.openTodos), ["3 Pay rent", "1 우유 사기"])
        XCTAssertEqual(words(.doneTodos), ["2 Call mum"])
        XCTAssertEqual(words(.memos), ["1 first line second"], "an untitled memo by its text, on one line")
        XCTAssertEqual(words(.timers), ["2 stopwatch, running", "1 집중"])
        XCTAssertEqual(words(.tags), ["home", "shop", "work"], "most used first, then by name")
        XCTAssertEqual(words(.voiceMemos), [])
        XCTAssertEqual(words(.voiceTags), [])
    }

    func testNothingBeforeOnboardingWithoutADatabaseOrFromAnotherFile() throws {
        XCTAssertEqual(words(.todos), [], "no database")
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.home.path), "nothing was created")

        _ = try workspace.todoStore().add(NewTodo(title: "before onboarding", note: nil, priority: nil, tags: ["x"], due: nil))
        XCTAssertEqual(words(.todos), [], "the gate holds for completion too")
        XCTAssertEqual(words(.tags), [])

        let other = DataHome(path: folder.appending("other"))
        try FileManager.default.createDirectory(atPath: other.path, withIntermediateDirectories: true)
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: other.databasePath))
        XCTAssertEqual(CompletionCandidates.candidates(.todos, in: other), [])
    }

    func testReadingChangesNothingAndTakesNoMigration() throws {
        try onboard()
        _ = try workspace.todoStore().add(NewTodo(title: "one", note: nil, priority: nil, tags: [], due: nil))
        let path = workspace.home.databasePath
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(words(.todos), ["1 one"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, before)
    }

    func testTextIsCleanedToOneLineWithoutControlCharacters() {
        XCTAssertEqual(CompletionCandidates.oneLine("a\tb\nc\u{1B}[2Jd"), "a b c [2Jd")
        XCTAssertEqual(CompletionCandidates.oneLine("  \u{202E}evil\u{0085}  "), "evil")
        XCTAssertEqual(CompletionCandidates.oneLine("회의\r\n\r\n메모"), "회의 메모")
        XCTAssertEqual(CompletionCandidates.oneLine("\u{7F}"), "")
        for candidate in ["\u{0}", "x\u{9F}y", "\u{2066}z"] {
            XCTAssertFalse(CompletionCandidates.oneLine(candidate).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }
}
