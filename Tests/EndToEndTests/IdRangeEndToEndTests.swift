import Foundation
import TestSupport
import XCTest

/// Ids as lists and ranges (`1-3,5`) wherever several are taken: `todo done`,
/// `undo`, `rm`, `memo rm`, `voice rm`; all or nothing, bounded ranges.
final class IdRangeEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func addTodos(_ count: Int) {
        for index in 1...count { XCTAssertEqual(app.run("todo", "add", "t\(index)").status, 0) }
    }

    private func doneIDs() -> [Int] {
        app.run("todo", "list", "--done", "--sort", "created", "--json").array().compactMap { $0["id"] as? Int }
    }

    func testTodoDoneUndoAndRmTakeListsAndRanges() {
        addTodos(7)
        let done = app.run("todo", "done", "1-3,5", "--json")
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertEqual(done.array().compactMap { $0["id"] as? Int }, [1, 2, 3, 5])
        XCTAssertEqual(doneIDs(), [1, 2, 3, 5])
        XCTAssertEqual(app.run("todo", "undo", "2-3", "1").status, 0)
        XCTAssertEqual(doneIDs(), [5])
        let removed = app.run("todo", "rm", "2,4-6", "--yes", "--json")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual((removed.object()["removed"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, [2, 4, 5, 6])
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().compactMap { $0["id"] as? Int }.sorted(), [1, 3, 7])
        XCTAssertEqual(app.run("todo", "done", "3,3,3-3").stdout.split(separator: "\n").count, 1, "each id once")
    }

    func testOneMissingIdChangesNothingAndIsNamed() {
        addTodos(3)
        for command in [["done"], ["rm", "--yes"]] {
            let result = app.run(["todo"] + command + ["1-3,9,20-25"])
            XCTAssertEqual(result.status, 4, result.stderr)
            XCTAssertEqual(result.stderr, "memoapp: no to-dos with ids 9, 20-25\n")
            XCTAssertEqual(app.run("todo", "list", "--json").array().count, 3, "nothing changed")
        }
        let many = app.run("todo", "done", "1-10000", "--json")
        XCTAssertEqual(many.status, 4)
        XCTAssertEqual(many.errorCode, "not_found")
        XCTAssertTrue(many.stderr.contains("4-10000"), many.stderr)
        XCTAssertEqual(doneIDs(), [])
    }

    func testMalformedReversedAndHugeRangesAreUsageErrors() {
        addTodos(2)
        let cases: [([String], String)] = [
            (["todo", "done", "2-1"], "runs backwards; write 1-2"),
            (["todo", "rm", "1-10001", "--yes"], "more than 10000 ids"),
            (["todo", "done", "1,,2"], "is not an id or a range"),
            (["todo", "undo", "0-2"], "ids run from 1"),
            (["memo", "rm", "1-"], "is not an id or a range"),
            (["voice", "rm", "3-1"], "runs backwards"),
        ]
        for (arguments, message) in cases {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("See 'memoapp"), result.stderr)
            XCTAssertEqual(app.run(arguments + ["--json"]).errorCode, "usage")
        }
        XCTAssertEqual(app.run("todo", "list", "--json").array().count, 2)
    }

    func testMemoAndVoiceRmTakeRanges() {
        for index in 1...4 { XCTAssertEqual(app.run("memo", "add", "memo \(index)").status, 0) }
        XCTAssertEqual(app.run("memo", "rm", "1-2,4", "--yes").status, 0)
        XCTAssertEqual(app.run("memo", "list", "--json").array().compactMap { $0["id"] as? Int }, [3])
        let wav = VoiceHome.fixture("tone-mono-16k.wav")
        for _ in 1...3 { XCTAssertEqual(app.run("voice", "import", wav, "--allow-duplicate").status, 0) }
        let missing = app.run("voice", "rm", "1-4", "--yes")
        XCTAssertEqual(missing.status, 4, missing.stderr)
        XCTAssertEqual(app.run("voice", "list", "--json").array().count, 3, "nothing removed")
        XCTAssertEqual(app.run("voice", "rm", "1-3", "--yes").status, 0)
        XCTAssertEqual(app.run("voice", "list", "--json").array().count, 0)
    }
}
