import Foundation
import MemoCore
import XCTest

final class JSONPrettyTests: XCTestCase {
    func testObjectsAndArraysOfObjectsAreIndentedAndPlainArraysStayOnOneLine() {
        let document = JSON.object([
            ("name", .string("a\nb")),
            ("tags", .strings(["x", "y"])),
            ("empty", .array([])),
            ("nothing", .object([])),
            ("items", .array([.object([("id", .int(1))]), .object([("id", .int(2)), ("ok", .bool(true))])])),
        ])
        XCTAssertEqual(document.prettySerialized, """
            {
              "name": "a\\nb",
              "tags": ["x", "y"],
              "empty": [],
              "nothing": {},
              "items": [
                {
                  "id": 1
                },
                {
                  "id": 2,
                  "ok": true
                }
              ]
            }

            """)
    }

    func testPrettyAndCompactFormsHoldTheSameValues() throws {
        let document = JSON.object([("text", .string("회의 🎉 \u{0} \"q\"")), ("n", .double(0.1)),
                                    ("list", .array([.int(1), .null, .object([("k", .array([]))])]))])
        let pretty = try JSONSerialization.jsonObject(with: Data(document.prettySerialized.utf8)) as? NSDictionary
        let compact = try JSONSerialization.jsonObject(with: Data(document.serialized.utf8)) as? NSDictionary
        XCTAssertNotNil(pretty)
        XCTAssertEqual(pretty, compact)
    }
}
