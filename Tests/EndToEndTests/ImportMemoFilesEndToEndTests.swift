import Foundation
import TestSupport
import XCTest

/// `memo import FILE…` through the built binary: one memo per file, titled by
/// its first heading, text as written, all or nothing, nothing added twice.
final class ImportMemoFilesEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = folder.appending(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Every memo in full, oldest id first.
    private func allMemos(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let list = app.run("memo", "list", "--json")
        XCTAssertEqual(list.status, 0, list.stderr, file: file, line: line)
        let ids = list.array(file: file, line: line).compactMap { $0["id"] as? Int }.sorted()
        return ids.map { app.run("memo", "show", String($0), "--json").object(file: file, line: line) }
    }

    func testEachFileBecomesOneMemoWithItsHeadingAsTitle() throws {
        let markdown = "# 회의록 Meeting\n\n- 다음 주 화요일까지 초안 😀\n- tab\there\n"
        let setext = "Plan\r\n====\r\nwindows line breaks\r\n"
        let plain = "just text, no heading\nsecond line"
        let files = [try write(markdown, to: "meeting.md"), try write(setext, to: "plan.markdown"),
                     try write(plain, to: "note.txt")]
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
                                              ofItemAtPath: files[0])
        let result = app.run(["memo", "import"] + files + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.object()["added"] as? Int, 3)
        XCTAssertEqual(result.object()["ids"] as? [Int], [1, 2, 3])

        let memos = allMemos()
        XCTAssertEqual(memos.map { $0["text"] as? String }, [markdown, setext, plain])
        XCTAssertEqual(memos.map { $0["title"] as? String }, ["회의록 Meeting", "Plan", nil])
        XCTAssertEqual(memos[0]["created_at"] as? String, "2023-11-14T22:13:20.000Z", "the file's modification time")
        XCTAssertEqual(app.run("memo", "show", "1").status, 0)
    }

    func testImportingAgainAddsNothing() throws {
        let first = try write("# One\ntext", to: "one.md")
        let copy = try write("# One\ntext", to: "copy-of-one.md")
        let result = app.run("memo", "import", first, copy)
        XCTAssertEqual(result.stdout, "Added 1 memo; 1 already present.\n", "a copy is the same memo")
        let second = try write("# Two", to: "two.md")
        let again = app.run("memo", "import", first, second, "--json")
        XCTAssertEqual(again.object()["added"] as? Int, 1)
        XCTAssertEqual(again.object()["already_present"] as? Int, 1)
        XCTAssertEqual(allMemos().count, 2)
    }

    func testBadFilesImportNothing() throws {
        let good = try write("# Fine\n", to: "good.md")
        let binary = try write(Array("line one\n".utf8) + [0xC3, 0x28, 0x0A], to: "binary.md")
        let notText = app.run("memo", "import", good, binary)
        XCTAssertEqual(notText.status, 65)
        XCTAssertEqual(notText.stderr, "memoapp: \(binary):2: not UTF-8 text; nothing was imported\n")

        let empty = try write(" \n\n", to: "empty.md")
        let blank = app.run("memo", "import", good, empty, "--json")
        XCTAssertEqual(blank.status, 65)
        XCTAssertEqual(blank.errorCode, "bad_input")
        XCTAssertEqual(blank.stdout, "")

        let missing = app.run("memo", "import", good, folder.appending("gone.md"))
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(app.run("memo", "import", good, folder.path).status, 65,
                       "a folder stands for its memo files, the bad ones among them")

        let korean = app.run("memo", "import", binary, "--lang", "ko")
        XCTAssertEqual(korean.stderr, "memoapp: \(binary):2: UTF-8 텍스트가 아닙니다. 아무것도 가져오지 않았습니다\n")
        XCTAssertEqual(allMemos().count, 0, "nothing was imported")
    }

    func testDryRunChangesNothing() throws {
        let file = try write("# A\n", to: "a.md")
        let dry = app.run("memo", "import", file, "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, "Would add 1 memo; 0 already present. Nothing was changed (--dry-run).\n")
        XCTAssertEqual(allMemos().count, 0)
    }
}
