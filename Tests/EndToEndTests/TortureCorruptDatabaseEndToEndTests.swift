import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 4: memoapp.db truncated or
/// overwritten; every command exits 74 with one line that points at
/// `memoapp doctor`, never crashes, and leaves the file as it found it.
final class TortureCorruptDatabaseEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!
    var good = Data()

    let commands: [[String]] = [["onboard", "status"], ["todo", "list", "--all"], ["todo", "add", "x"],
                                ["todo", "done", "1", "2"], ["memo", "list"], ["memo", "add", "x"], ["search", "memo"],
                                ["timer", "start", "5m"], ["voice", "list"], []]

    override func setUpWithError() throws {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        for index in 1...20 {
            XCTAssertEqual(app.run("todo", "add", "todo \(index) " + String(repeating: "내용 ", count: 200)).status, 0)
        }
        XCTAssertEqual(app.run("memo", "add", "a memo").status, 0)
        good = try Data(contentsOf: URL(fileURLWithPath: app.databasePath))
    }

    private func assertEveryCommandRefuses(_ damaged: Data, _ what: String, file: StaticString = #filePath,
                                           line: UInt = #line) throws {
        for command in commands {
            try damaged.write(to: URL(fileURLWithPath: app.databasePath))
            let result = app.run(command)
            app.assertStorageFailure(result, mentioning: ["run 'memoapp doctor'"], "\(what): \(command)",
                                     file: file, line: line)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: app.databasePath)), damaged,
                           "\(what): \(command) changed the damaged file", file: file, line: line)
        }
        let json = app.run("--json", "todo", "list")
        XCTAssertEqual(json.errorCode, "storage", file: file, line: line)
        XCTAssertEqual(json.stdout, "", file: file, line: line)
    }

    func testTruncatedDatabaseExits74ForEveryCommand() throws {
        for length in [1, 50, 100, 4096, good.count / 2] {
            try assertEveryCommandRefuses(good.prefix(length), "truncated to \(length) B")
        }
    }

    func testGarbageDatabaseExits74ForEveryCommand() throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<good.count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try assertEveryCommandRefuses(garbage, "garbage")
        try assertEveryCommandRefuses(good.prefix(100) + garbage.dropFirst(100), "garbage after the header")
        try assertEveryCommandRefuses(Data(repeating: 0, count: good.count), "zeros")
    }

    func testDamagedHeaderFieldsExit74() throws {
        for (offset, bytes, what) in [(16, [0, 3], "page size"), (18, [7, 7], "write version"),
                                      (44, [0, 0, 0, 9], "schema format"), (100, [0x77], "page 1 type")] {
            var damaged = good
            damaged.replaceSubrange(offset..<(offset + bytes.count), with: bytes.map(UInt8.init))
            try assertEveryCommandRefuses(damaged, what)
        }
    }
}
