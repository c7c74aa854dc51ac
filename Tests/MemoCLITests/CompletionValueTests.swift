import CommandLineKit
@testable import MemoCLI
import MemoKit
import XCTest

/// What completion offers where, read from the real command declarations:
/// ids by the command they belong to, tags, choices and suggested words,
/// folders for DIR, files for other paths; and the hidden helper's arguments.
final class CompletionValueTests: XCTestCase {
    private let tree = CompletionTree(root: RootCommand.make(), language: .en)

    private func node(_ path: String) throws -> CompletionTree.Node {
        try XCTUnwrap(tree.nodes.first { $0.pathText == path }, path)
    }

    private func positional(_ path: String) throws -> CompletionValue {
        let node = try node(path)
        return CompletionValue.of(try XCTUnwrap(node.command.positionals.first, path), at: node.path)
    }

    private func option(_ path: String, _ name: String) throws -> CompletionValue {
        let node = try node(path)
        return CompletionValue.of(try XCTUnwrap(node.options.first { $0.name == name }, "\(path) --\(name)"), at: node.path)
    }

    func testEveryIDOffersTheItemsOfItsCommand() throws {
        XCTAssertEqual(try positional("todo done"), .data(.openTodos))
        XCTAssertEqual(try positional("todo undo"), .data(.doneTodos))
        for path in ["todo rm", "todo edit", "todo show"] { XCTAssertEqual(try positional(path), .data(.todos), path) }
        for path in ["memo show", "memo edit", "memo rm", "memo pin"] { XCTAssertEqual(try positional(path), .data(.memos), path) }
        for path in ["voice show", "voice play", "voice export", "voice trim", "voice rm"] {
            XCTAssertEqual(try positional(path), .data(.voiceMemos), path)
        }
        XCTAssertEqual(try option("timer start", "todo"), .data(.openTodos))
        let timerIDs = tree.nodes.filter { $0.path.first == "timer" }.flatMap { node in
            node.command.positionals.filter { $0.name == "ID" }.map { CompletionValue.of($0, at: node.path) }
        }
        XCTAssertFalse(timerIDs.isEmpty)
        XCTAssertTrue(timerIDs.allSatisfy { $0 == .data(.timers) }, "\(timerIDs)")
    }

    func testTagsChoicesAndSuggestedWordsComeFromTheDeclarations() throws {
        XCTAssertEqual(try option("todo list", "tag"), .data(.tags))
        XCTAssertEqual(try option("memo edit", "untag"), .data(.tags))
        XCTAssertEqual(try option("voice import", "tag"), .data(.voiceTags))
        XCTAssertEqual(try option("todo add", "priority"), .words(["high", "medium", "low"]))
        XCTAssertEqual(try option("todo edit", "priority"), .words(["high", "medium", "low", "none"]))
        XCTAssertEqual(try option("todo add", "repeat"), .words(["daily", "weekly", "monthly", "yearly", "weekdays"]))
        XCTAssertEqual(try option("voice export", "format"), .words(["wav", "flac", "ogg", "mp3"]))
        XCTAssertEqual(try option("todo list", "color"), .words(["auto", "always", "never"]))
        XCTAssertEqual(try option("todo add", "note"), .nothing, "free text: nothing to offer")
    }

    func testFoldersForDIRAndFilesForOtherPaths() throws {
        XCTAssertEqual(try option("import", "audio"), .folders)
        XCTAssertEqual(try option("todo list", "home"), .folders)
        XCTAssertEqual(try positional("backup"), .folders)
        XCTAssertEqual(try positional("restore"), .folders)
        XCTAssertEqual(try positional("import"), .files)
        XCTAssertEqual(try positional("voice import"), .files)
        XCTAssertEqual(try option("export", "output"), .files)
    }

    func testSuggestedWordsStillAcceptTheirSynonyms() throws {
        let app = TestApp()
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("todo", "add", "a", "--priority", "높음").status, 0, "a synonym is not refused as a choice")
        XCTAssertEqual(app.run("todo", "add", "b", "--repeat", "every 2 weeks", "--due", "2030-01-01").status, 0)
    }

    func testTheHiddenHelperAnswersNothingAndTouchesNothingBeforeOnboarding() {
        let app = TestApp()
        for arguments in [["__complete", "todos"], ["__complete", "bogus"], ["__complete"], ["__complete", "tags", "--home", ""]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments)")
            XCTAssertEqual(run.stdout + run.stderr, "", "\(arguments)")
        }
        XCTAssertFalse(app.homeExists, "no data home is made for a Tab press")
        XCTAssertEqual(app.run("todo", "add", "x").status, 3, "still gated")
        XCTAssertEqual(app.run("__complete", "todos").stdout, "", "a database, but onboarding is not completed")
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("todo", "add", "Buy milk").status, 0)
        XCTAssertEqual(app.run("__complete", "open-todos").stdout, "1\tBuy milk\n")
        XCTAssertEqual(app.run("__complete", "done-todos").stdout, "")
    }

    func testTheHiddenHelperReadsItsSourceAndHome() {
        XCTAssertEqual(CompleteCommand.parse(["todos"])?.source, .todos)
        XCTAssertNil(CompleteCommand.parse(["todos"])?.home)
        XCTAssertEqual(CompleteCommand.parse(["open-todos", "--home", "/x y"])?.home, "/x y")
        XCTAssertEqual(CompleteCommand.parse(["--home=/h", "voice-tags"])?.home, "/h")
        XCTAssertEqual(CompleteCommand.parse(["--home=/h", "voice-tags"])?.source, .voiceTags)
        for bad in [[], ["bogus"], ["todos", "memos"], ["todos", "--home"], ["todos", "--json"]] {
            XCTAssertNil(CompleteCommand.parse(bad), "\(bad)")
        }
        XCTAssertEqual(CompleteCommand.line(.init(word: "3", description: "Buy milk")), "3\tBuy milk")
        XCTAssertEqual(CompleteCommand.line(.init(word: "home")), "home")
    }
}
