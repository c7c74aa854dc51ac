import Foundation
import MemoCore
import XCTest

final class JSONTests: XCTestCase {
    // MARK: Scalars

    func testScalarsSerializeAsJSONLiterals() {
        XCTAssertEqual(JSON.null.serialized, "null")
        XCTAssertEqual(JSON.bool(true).serialized, "true")
        XCTAssertEqual(JSON.bool(false).serialized, "false")
        XCTAssertEqual(JSON.int(42).serialized, "42")
        XCTAssertEqual(JSON.int(-7).serialized, "-7")
        XCTAssertEqual(JSON.int(Int64.max).serialized, "9223372036854775807")
        XCTAssertEqual(JSON.int(Int64.min).serialized, "-9223372036854775808")
    }

    func testTheByteWriterWritesExactlyTheBytesOfTheStringWriter() {
        // HTTP bodies are serializedBytes, the command line's documents
        // serialized: one writer, so they must never differ.
        let document = JSON.object([
            ("ints", .array([.int(0), .int(9), .int(10), .int(-1), .int(Int64.max), .int(Int64.min)])),
            ("doubles", .array([.double(1.5), .double(-2), .double(1e300), .double(.nan)])),
            ("text", .string("회의 \"quoted\" back\\slash\n\t\u{01}\u{7F} \u{2028}\u{2029} 🙂")),
            ("키 \"key\"", .optional(nil as String?)),
            ("nested", .object([("empty", .array([])), ("flags", .array([.bool(true), .bool(false)]))])),
        ])
        XCTAssertEqual(document.serializedBytes, Array(document.serialized.utf8))
        XCTAssertEqual(String(decoding: JSON.int(-9_223_372_036_854_775_807 - 1).serializedBytes, as: UTF8.self),
                       "-9223372036854775808")
        XCTAssertEqual(JSON.string("").serializedBytes, Array(#""""#.utf8))
    }

    // MARK: Strings

    func testQuoteAndBackslashAreEscaped() {
        XCTAssertEqual(JSON.string(#"say "hi" \ bye"#).serialized, #""say \"hi\" \\ bye""#)
    }

    func testCommonControlCharactersUseShortEscapes() {
        XCTAssertEqual(JSON.string("a\nb\rc\td").serialized, #""a\nb\rc\td""#)
    }

    func testOtherControlCharactersUseUnicodeEscapes() {
        XCTAssertEqual(JSON.string("\u{0}").serialized, #""\u0000""#)
        XCTAssertEqual(JSON.string("\u{1}\u{8}\u{C}\u{1B}\u{1F}").serialized, #""\u0001\u0008\u000c\u001b\u001f""#)
        XCTAssertEqual(JSON.string("\u{7F}").serialized, #""\u007f""#)
    }

    func testNoRawControlCharacterReachesTheOutput() {
        let every = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let output = JSON.string(every).serialized
        XCTAssertFalse(output.unicodeScalars.contains { $0.value < 0x20 }, output)
    }

    func testLineAndParagraphSeparatorsAreEscaped() {
        // Raw U+2028 and U+2029 end a line in JavaScript; escaped they are safe anywhere.
        XCTAssertEqual(JSON.string("a\u{2028}b\u{2029}c").serialized, #""a\u2028b\u2029c""#)
    }

    func testKoreanAndEmojiAreWrittenAsThemselves() {
        let text = "오늘의 할일 👩‍💻🎙️ 가나다"
        XCTAssertEqual(JSON.string(text).serialized, "\"" + text + "\"")
    }

    func testKeysAreEscapedLikeValues() {
        XCTAssertEqual(JSON.object([("a\"b\n", .null)]).serialized, #"{"a\"b\n":null}"#)
    }

    func testEscapedStringsParseBackToTheOriginal() throws {
        let original = "\"\\/\u{0}\u{1}\n\r\t\u{7F}\u{2028}\u{2029}한글😀 end"
        let document = JSON.array([.string(original)]).serialized
        let parsed = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String]
        XCTAssertEqual(parsed, [original])
    }

    // MARK: Containers

    func testObjectsKeepTheirKeysInTheGivenOrder() {
        let object = JSON.object([("zeta", .int(1)), ("alpha", .int(2)), ("mid", .int(3))])
        XCTAssertEqual(object.serialized, #"{"zeta":1,"alpha":2,"mid":3}"#)
    }

    func testNestedContainersSerializeCompactly() {
        let document = JSON.object([
            ("items", .array([.int(1), .object([("done", .bool(true))]), .array([])])),
            ("empty", .object([])),
        ])
        XCTAssertEqual(document.serialized, #"{"items":[1,{"done":true},[]],"empty":{}}"#)
        XCTAssertFalse(document.serialized.contains("\n"))
    }

    func testWriteAppendsToExistingText() {
        var out = "prefix:"
        JSON.int(5).write(to: &out)
        XCTAssertEqual(out, "prefix:5")
    }

    // MARK: Doubles

    func testWholeDoublesPrintWithoutAFraction() {
        XCTAssertEqual(JSON.double(1).serialized, "1")
        XCTAssertEqual(JSON.double(-3).serialized, "-3")
        XCTAssertEqual(JSON.double(1_795_958_644).serialized, "1795958644")
    }

    func testFractionalDoublesRoundTrip() {
        for value in [0.5, -2.25, 0.1, 0.1 + 0.2, 1.5e-7, 123_456.789, 1e15, 1e300, -1e-300, Double.ulpOfOne] {
            let text = JSON.double(value).serialized
            XCTAssertEqual(Double(text), value, text)
            assertValidJSONNumber(text)
        }
    }

    func testNegativeZeroIsANumber() {
        let text = JSON.double(-0.0).serialized
        XCTAssertEqual(Double(text), 0, text)
        assertValidJSONNumber(text)
    }

    func testNonFiniteDoublesBecomeNull() {
        XCTAssertEqual(JSON.double(.nan).serialized, "null")
        XCTAssertEqual(JSON.double(.infinity).serialized, "null")
        XCTAssertEqual(JSON.double(-.infinity).serialized, "null")
        XCTAssertEqual(JSON.array([.double(.nan), .double(1.5)]).serialized, "[null,1.5]")
    }

    // MARK: Equality and conveniences

    func testEqualityIsStructuralAndOrderSensitive() {
        XCTAssertEqual(JSON.object([("a", .int(1)), ("b", .null)]), JSON.object([("a", .int(1)), ("b", .null)]))
        XCTAssertNotEqual(JSON.object([("a", .int(1)), ("b", .null)]), JSON.object([("b", .null), ("a", .int(1))]))
        XCTAssertNotEqual(JSON.object([("a", .int(1))]), JSON.object([("a", .int(1)), ("b", .null)]))
        XCTAssertNotEqual(JSON.int(1), JSON.double(1))
        XCTAssertNotEqual(JSON.string("1"), JSON.int(1))
        XCTAssertNotEqual(JSON.array([.null]), JSON.array([]))
    }

    func testConveniencesBuildTheExpectedValues() {
        XCTAssertEqual(JSON.int(3 as Int), JSON.int(Int64(3)))
        XCTAssertEqual(JSON.optional(nil as String?), .null)
        XCTAssertEqual(JSON.optional("x" as String?), .string("x"))
        XCTAssertEqual(JSON.optional(nil as Timestamp?), .null)
        XCTAssertEqual(JSON.optional(Timestamp(secondsSince1970: 0)), .string("1970-01-01T00:00:00.000Z"))
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: 86_400.9)), .string("1970-01-02T00:00:00.899Z"))
        XCTAssertEqual(JSON.strings(["a", "b"]), .array([.string("a"), .string("b")]))
    }

    // MARK: - Helpers

    private func assertValidJSONNumber(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let document = "[" + text + "]"
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(document.utf8)), document, file: file, line: line)
    }
}
