import Foundation
import TestSupport
import XCTest

/// Lists that stop and narrow: `--limit` on every list, repeated `--tag`
/// (all must hold) and `--tag -T` (without it) on to-dos and memos, and
/// `memo list --since/--until/--sort/--reverse`.
final class ListFiltersEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func ids(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        let result = app.run(arguments + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.array(file: file, line: line).compactMap { $0["id"] as? Int }
    }

    func testRepeatedTagsMustAllHoldAndAMinusExcludes() {
        XCTAssertEqual(app.run("todo", "add", "both", "--tag", "work", "--tag", "urgent").status, 0)
        XCTAssertEqual(app.run("todo", "add", "work only", "--tag", "work").status, 0)
        XCTAssertEqual(app.run("todo", "add", "urgent only", "--tag", "urgent").status, 0)
        XCTAssertEqual(app.run("todo", "add", "none").status, 0)
        XCTAssertEqual(ids("todo", "list", "--tag", "work", "--tag", "urgent"), [1], "AND, not OR")
        XCTAssertEqual(ids("todo", "list", "--tag", "work"), [1, 2])
        XCTAssertEqual(ids("todo", "list", "--tag", "-work"), [3, 4])
        XCTAssertEqual(ids("todo", "list", "--tag", "urgent", "--tag", "-WORK"), [3], "any case")
        XCTAssertEqual(ids("todo", "list", "--sort", "newest"), [4, 3, 2, 1])
        XCTAssertEqual(ids("todo", "list", "--sort", "newest", "--tag", "work", "--limit", "1"), [2])
        XCTAssertEqual(app.run("todo", "list", "--sort", "latest").status, 64, "a word not offered is a usage error")
        XCTAssertEqual(app.run("todo", "list", "--tag", "-").status, 64)
        XCTAssertEqual(app.run("todo", "list", "--tag", "-two words").status, 64)

        for (text, tags) in [("m1", ["work", "idea"]), ("m2", ["work"]), ("m3", ["idea"])] {
            XCTAssertEqual(app.run(["memo", "add", text] + tags.flatMap { ["--tag", $0] }).status, 0)
        }
        XCTAssertEqual(ids("memo", "list", "--tag", "work", "--tag", "idea"), [1])
        XCTAssertEqual(ids("memo", "list", "--tag", "-work"), [3])
        XCTAssertEqual(ids("memo", "--tag", "-idea"), [2], "bare memo lists with the same options")
        XCTAssertEqual(app.run("memo", "list", "--tag", "-work", "--tag", "-idea").stdout, "No matching memos.\n")
    }

    func testMemoListBetweenDatesAndInEveryOrder() {
        for title in ["banana", "apple", "cherry"] {
            XCTAssertEqual(app.run("memo", "add", "text of \(title)", "--title", title).status, 0)
        }
        XCTAssertEqual(app.run("memo", "edit", "1", "--text", "changed").status, 0)
        XCTAssertEqual(ids("memo", "list"), [3, 2, 1])
        XCTAssertEqual(ids("memo", "list", "--reverse"), [1, 2, 3])
        XCTAssertEqual(ids("memo", "list", "--sort", "created"), [3, 2, 1])
        XCTAssertEqual(ids("memo", "list", "--sort", "updated"), [1, 3, 2])
        XCTAssertEqual(ids("memo", "list", "--sort", "title"), [2, 1, 3])
        XCTAssertEqual(ids("memo", "list", "--sort", "title", "--reverse", "--limit", "2"), [3, 1])
        // The memos were made now: within any window around now, outside any before it.
        XCTAssertEqual(ids("memo", "list", "--since", "2000-01-01", "--until", "2099-12-31"), [3, 2, 1])
        XCTAssertEqual(ids("memo", "list", "--until", "2000-01-01"), [])
        XCTAssertEqual(ids("memo", "list", "--since", "2099-01-01 9am"), [])
        XCTAssertEqual(ids("memo", "list", "--since", "yesterday", "--until", "tomorrow"), [3, 2, 1])
        XCTAssertEqual(app.run("memo", "list", "--since", "someday").status, 64)
        XCTAssertEqual(app.run("memo", "list", "--sort", "size").status, 64)
        XCTAssertEqual(app.run("memo", "list", "--until", "2000-01-01").stdout, "No matching memos.\n")
    }

    func testEveryListTakesALimit() {
        for index in 1...3 {
            XCTAssertEqual(app.run("todo", "add", "t\(index)").status, 0)
            XCTAssertEqual(app.run("memo", "add", "m\(index)").status, 0)
            XCTAssertEqual(app.run("timer", "start", "\(index)h").status, 0)
        }
        let wav = VoiceHome.fixture("tone-mono-16k.wav")
        for _ in 1...3 { XCTAssertEqual(app.run("voice", "import", wav, "--allow-duplicate").status, 0) }
        for list in [["todo", "list"], ["todo"], ["memo", "list"], ["memo"], ["voice", "list"], ["voice"],
                     ["timer", "list"], ["timer"]] {
            let limited = app.run(list + ["--limit", "2", "--json"])
            XCTAssertEqual(limited.status, 0, "\(list): \(limited.stderr)")
            XCTAssertEqual(limited.array().count, 2, "\(list)")
            // Every list is a table now: a heading line and the two rows.
            XCTAssertEqual(app.run(list + ["--limit", "2"]).stdout.split(separator: "\n").count, 3, "\(list)")
            XCTAssertEqual(app.run(list + ["--limit", "0"]).status, 64, "\(list)")
            XCTAssertEqual(app.run(list + ["--json"]).array().count, 3, "\(list)")
        }
    }
}
