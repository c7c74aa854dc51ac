import Foundation
import MemoCore
import XCTest

final class JSONReaderStrictTests: XCTestCase {
    private func reader(_ text: String) throws -> JSONReader {
        try JSONReader(parsing: Array(text.utf8), source: "f.json")
    }

    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            XCTFail("no error")
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput)
            return error.message.en
        } catch {
            XCTFail("\(error)")
        }
        return nil
    }

    func testANullableKeyMustStillBeThere() throws {
        let document = try reader(#"{"a": null, "b": "x"}"#)
        XCTAssertTrue(document.hasKey("a"))
        XCTAssertFalse(document.hasKey("c"))
        XCTAssertNil(try document.nullableString("a"))
        XCTAssertEqual(try document.nullableString("b"), "x")
        XCTAssertEqual(message { _ = try document.nullableString("c") }, "f.json: $.c: missing (null is allowed)")
        XCTAssertEqual(message { _ = try document.nonNull("a") }, "f.json: $.a: expected a value, found null")
    }

    func testARequiredKeyThatIsMissingOrNullSaysWhatIsExpected() throws {
        let document = try reader(#"{"a": null}"#)
        let title = Localized(en: "a title (a string)", ko: "제목(문자열)")
        XCTAssertEqual(message { _ = try document.nonNull("c", expecting: title) }, "f.json: $.c: missing: expected a title (a string)")
        XCTAssertEqual(message { _ = try document.nonNull("a", expecting: title) }, "f.json: $.a: expected a title (a string), found null")
        XCTAssertEqual(message { _ = try document.time("c") }, "f.json: $.c: missing: expected a time")
        XCTAssertFalse((message { _ = try document.nonNull("c") } ?? "").contains("null is allowed"))
    }

    func testTimesAreExactRFC3339() throws {
        let document = try reader(#"{"t": "2026-11-29T13:24:04.25Z", "n": null, "bad": "2026-11-29", "num": 5}"#)
        XCTAssertEqual(try document.time("t").secondsSince1970, 1_795_958_644.25)
        XCTAssertNil(try document.nullableTime("n"))
        XCTAssertEqual(message { _ = try document.time("n") }, "f.json: $.n: expected a time, found null")
        XCTAssertEqual(message { _ = try document.time("bad") },
                       "f.json: $.bad: '2026-11-29' is not an RFC 3339 time such as 2026-11-29T13:24:04Z")
        XCTAssertEqual(message { _ = try document.time("num") }, "f.json: $.num: expected a string, found an integer")
    }

    func testRangesUIDsAndFiniteNumbers() throws {
        let document = try reader(#"{"n": 7, "u": "0f0e0d0c-0b0a-4908-8706-050403020100", "x": "X", "d": 1e308}"#)
        XCTAssertEqual(try document.int("n", in: 1...9), 7)
        XCTAssertEqual(message { _ = try document.int("n", in: 8...9) }, "f.json: $.n: 7 is outside 8...9")
        XCTAssertEqual(try document.uid("u"), "0f0e0d0c-0b0a-4908-8706-050403020100")
        XCTAssertEqual(message { _ = try document.uid("x") },
                       "f.json: $.x: 'X' is not a uid (a UUID: 8-4-4-4-12 lowercase hex digits)")
        XCTAssertEqual(try document.nonNull("d").finiteDouble(), 1e308)
    }

    func testADuplicateNamesBothPlaces() throws {
        let document = try reader(#"[{"id": 1}, {"id": 2}, {"id": 1}]"#)
        var check = DuplicateCheck<Int64>(name: "id")
        let items = try document.elements()
        try check.note(1, at: try items[0].nonNull("id"))
        try check.note(2, at: try items[1].nonNull("id"))
        XCTAssertEqual(message { try check.note(1, at: try items[2].nonNull("id")) },
                       "f.json: $[2].id: the id 1 is used twice (first at $[0].id)")
    }
}
