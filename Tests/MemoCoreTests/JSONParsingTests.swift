import MemoCore
import XCTest

final class JSONParsingTests: XCTestCase {
    private func parse(_ text: String) throws -> JSON {
        try JSON.parse(Array(text.utf8))
    }

    private func syntaxError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONSyntaxError? {
        do {
            let value = try JSON.parse(bytes)
            XCTFail("parsed as \(value.serialized.prefix(80))", file: file, line: line)
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    private func syntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONSyntaxError? {
        syntaxError(Array(text.utf8), file: file, line: line)
    }

    // MARK: Round trips of memoapp's own output

    func testScalarsRoundTrip() throws {
        for value: JSON in [.null, .bool(true), .bool(false), .int(0), .int(42), .int(-7), .int(Int64.max),
                            .int(Int64.min), .double(0.1), .double(-2.5), .double(1e-5), .double(5e20),
                            .double(1.7976931348623157e308), .double(-Double.leastNonzeroMagnitude), .string("")] {
            XCTAssertEqual(try JSON.parse(Array(value.serialized.utf8)), value, value.serialized)
        }
    }

    func testStringsWithKoreanEmojiEscapesAndNULRoundTrip() throws {
        let texts = ["회의록: 다음 주 화요일까지 초안", "👩‍💻🎙️ family 👨‍👩‍👧‍👦 flag 🇰🇷",
                     "quote \" backslash \\ slash / tab\t cr\r lf\n", "nul\u{0}inside\u{0}", "\u{0}",
                     "controls \u{1}\u{8}\u{C}\u{1B}\u{1F}\u{7F}", "separators \u{2028}\u{2029}",
                     "combining e\u{301} and 한\u{1100}", "\u{FEFF}bom-like", "\u{10FFFF} last scalar"]
        for text in texts {
            let document = JSON.array([.string(text)])
            XCTAssertEqual(try JSON.parse(Array(document.serialized.utf8)), document, text.debugDescription)
        }
    }

    func testNestedDocumentRoundTripsWithKeyOrderKept() throws {
        let document = JSON.object([
            ("zeta", .int(1)), ("alpha", .array([.int(1), .object([("done", .bool(true))]), .array([])])),
            ("한글 키", .string("값")), ("empty", .object([])), ("m", .null), ("b", .double(3.25)),
            ("y", .array([.int(-9_007_199_254_740_993), .int(9_007_199_254_740_993)])),
        ])
        let parsed = try JSON.parse(Array(document.serialized.utf8))
        XCTAssertEqual(parsed, document)
        guard case let .object(members) = parsed else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.0), ["zeta", "alpha", "한글 키", "empty", "m", "b", "y"])
    }

    func testIntegralDoublesComeBackAsIntegers() throws {
        // memoapp writes 2.0 as `2`, and a number without a fraction is an integer.
        XCTAssertEqual(try JSON.parse(Array(JSON.double(2).serialized.utf8)), .int(2))
    }

    // MARK: Numbers

    func testNumbersWithAFractionOrExponentAreDoubles() throws {
        XCTAssertEqual(try parse("1.0"), .double(1))
        XCTAssertEqual(try parse("1e2"), .double(100))
        XCTAssertEqual(try parse("-0.5E-1"), .double(-0.05))
        XCTAssertEqual(try parse("-0"), .int(0))
    }

    func testInt64LimitsParseExactly() throws {
        XCTAssertEqual(try parse("9223372036854775807"), .int(Int64.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .int(Int64.min))
    }

    func testIntegersBeyondInt64AreErrorsNotRoundedValues() {
        XCTAssertEqual(syntaxError("9223372036854775808")?.reason.contains("too big integer"), true)
        XCTAssertEqual(syntaxError("[1, -9223372036854775809]")?.reason.contains("too big negative integer"), true)
        XCTAssertEqual(syntaxError("1e400")?.reason.contains("overflow"), true)
    }

    // MARK: Malformed documents

    func testTruncatedDocumentNamesWhereItEnded() {
        let error = syntaxError("[1,2")
        XCTAssertEqual(error?.line, 1)
        XCTAssertEqual(error?.column, 4)
        XCTAssertEqual(error?.reason.contains("end of file"), true)
        XCTAssertNotNil(syntaxError("{\"a\": \"unterminated"))
        XCTAssertNotNil(syntaxError(""))
        XCTAssertNotNil(syntaxError("   \n  "))
    }

    func testTrailingGarbageIsRefused() {
        let error = syntaxError("[1,2] x")
        XCTAssertEqual(error?.line, 1)
        XCTAssertEqual(error?.column, 7)
        XCTAssertNotNil(syntaxError("{} {}"))
        XCTAssertNotNil(syntaxError([UInt8]("{}".utf8) + [0, 0x41]))
    }

    func testErrorNamesLineAndColumnInCharacters() {
        let error = syntaxError("[\n  \"한글\",\n  x]")
        XCTAssertEqual(error?.line, 3)
        XCTAssertEqual(error?.column, 3)
        let korean = syntaxError("[\"한글\" x]")
        XCTAssertEqual(korean?.column, 7, "columns count characters, not bytes")
        XCTAssertEqual(korean?.byteOffset, 11)
        XCTAssertEqual(korean?.description, "invalid JSON at line 1, column 7: ']' expected near 'x'")
        XCTAssertEqual(korean?.message.ko, "JSON 형식이 잘못되었습니다 (1행 7열): ']' expected near 'x'")
    }

    func testDuplicateKeysAreRefused() {
        let error = syntaxError("{\"a\": 1,\n \"a\": 2}")
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.reason.contains("duplicate"), true)
        XCTAssertNotNil(syntaxError("[{\"x\": {\"k\": 1, \"k\": 1}}]"))
    }

    func testInvalidUTF8IsRefused() {
        XCTAssertNotNil(syntaxError([0x22, 0xFF, 0x22]))
        XCTAssertNotNil(syntaxError([0x22, 0xC3, 0x22]), "a cut two-byte sequence")
        XCTAssertNotNil(syntaxError([0x22, 0xC0, 0xAF, 0x22]), "an overlong encoding")
        XCTAssertNotNil(syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22]), "an encoded surrogate")
        XCTAssertNotNil(syntaxError([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D]), "in a key")
    }

    func testLoneSurrogateEscapesAreRefused() {
        XCTAssertEqual(syntaxError(#""\ud800""#)?.reason.contains("invalid Unicode"), true)
        XCTAssertNotNil(syntaxError(#""\udc00x""#))
        XCTAssertNotNil(syntaxError(#""\ud800\u0041""#))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"), "a proper pair is one scalar")
    }

    func testNULIsAllowedInStringsButNotInKeys() throws {
        XCTAssertEqual(try parse(#"["a\u0000b"]"#), .array([.string("a\u{0}b")]))
        XCTAssertNotNil(syntaxError(#"{"a\u0000b": 1}"#))
    }

    func testRawControlCharactersInStringsAreRefused() {
        XCTAssertNotNil(syntaxError("[\"a\nb\"]"))
        XCTAssertNotNil(syntaxError([0x22, 0x00, 0x22]))
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let nested = [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        let error = syntaxError(nested)
        XCTAssertEqual(error?.reason.contains("maximum parsing depth"), true)
        XCTAssertEqual(error?.column, 2049)
        XCTAssertNotNil(syntaxError(Array(repeating: UInt8(ascii: "{"), count: depth)))
    }

    func testNestingUpToJanssonsLimitParses() throws {
        let depth = 2048
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try parse(text)
        var levels = 0
        while case let .array(items) = value {
            levels += 1
            guard let first = items.first else { break }
            value = first
        }
        XCTAssertEqual(levels, depth)
    }

    func testAnyValueMayStandAtTheTop() throws {
        XCTAssertEqual(try parse(" \"top\" "), .string("top"))
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("\n true\n"), .bool(true))
    }

    func testParsesEveryKindOfCollection() throws {
        let text = "{\"a\":[1,2.5,\"x\",null,true,false,{}]}"
        XCTAssertEqual(try JSON.parse(text.utf8), try parse(text), "a non-contiguous collection")
        XCTAssertEqual(try JSON.parse(ArraySlice(Array(("xx" + text).utf8).dropFirst(2))), try parse(text))
        XCTAssertEqual(try JSON.parse(ContiguousArray(text.utf8)), try parse(text))
    }

    func testSyntaxErrorBecomesABadInputErrorNamingTheSource() {
        guard let error = syntaxError("[1,,2]") else { return }
        let failure = error.memoError(source: "tasks.json")
        XCTAssertEqual(failure.kind, .badInput)
        XCTAssertTrue(failure.message.en.hasPrefix("tasks.json: invalid JSON at line 1, column 4: "), failure.message.en)
        XCTAssertTrue(failure.message.ko.hasPrefix("tasks.json: JSON 형식이 잘못되었습니다 (1행 4열): "), failure.message.ko)
    }
}
