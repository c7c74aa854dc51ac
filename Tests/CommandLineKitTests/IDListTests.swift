import CommandLineKit
import MemoCore
import XCTest

/// Ids, lists and ranges in one word: `1-3,5`.
final class IDListTests: XCTestCase {
    private let range: ClosedRange<Int64> = 1...Int64.max

    private func ids(_ word: String) throws -> [Int64] { try IDList.ids(in: word, range: range) }

    private func message(_ word: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let found = try ids(word)
            XCTFail("'\(word)' read as \(found.count) ids", file: file, line: line)
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .usage, file: file, line: line)
            XCTAssertFalse(error.message.ko.isEmpty, file: file, line: line)
            return error.message.en
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
        return ""
    }

    func testIdsListsAndRanges() throws {
        XCTAssertEqual(try ids("7"), [7])
        XCTAssertEqual(try ids("1-3"), [1, 2, 3])
        XCTAssertEqual(try ids("1-3,5"), [1, 2, 3, 5])
        XCTAssertEqual(try ids("9,2-4,2"), [9, 2, 3, 4, 2], "the order as written; duplicates are dropped by the reader")
        XCTAssertEqual(try ids("4-4"), [4])
        XCTAssertEqual(try ids("9223372036854775806-9223372036854775807"), [Int64.max - 1, Int64.max])
        XCTAssertEqual(try ids("1-10000").count, 10_000)
    }

    func testMalformedWordsSayWhatIsWrong() {
        for word in ["", ",", "1,", ",1", "1,,2", "-3", "3-", "1--3", "1-2-3", "a", "1-b", "+1", " 1", "1 ", "１", "1.5",
                     "0x10", "99999999999999999999"] {
            XCTAssertTrue(message(word).contains("is not an id or a range"), word)
        }
        XCTAssertTrue(message("0").contains("ids run from 1"))
        XCTAssertTrue(message("0-3").contains("ids run from 1"))
        XCTAssertTrue(message("5-3").contains("the range 5-3 runs backwards; write 3-5"))
        XCTAssertTrue(message("1-10001").contains("more than 10000 ids"))
        XCTAssertTrue(message("1,2,1-99999999").contains("invalid ID '1,2,1-99999999'"))
    }

    func testTheReaderGivesEveryWordsIdsOnceInOrder() throws {
        let ids = IDArguments("ID", range: 1...100, help: Localized(verbatim: ""))
        let root = Command<Void>("app", abstract: Localized(verbatim: ""), subcommands: [
            Command<Void>("done", abstract: Localized(verbatim: ""), positionals: [ids], body: { _, _ in }),
        ], access: .alwaysRuns)
        let parser = Parser<Void>(root: root, globalOptions: [])
        XCTAssertEqual(try parser.parse(["done", "5", "1-3,5", "2"]).arguments[ids], [5, 1, 2, 3])
        XCTAssertThrowsError(try parser.parse(["done", "1-101"])) { error in
            XCTAssertEqual((error as? UsageError)?.message.en, "invalid ID '1-101': ids run from 1 to 100")
        }
        XCTAssertThrowsError(try parser.parse(["done"]))
    }
}
