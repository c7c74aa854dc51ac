@testable import MemoCore
import XCTest

/// The quick reader `JSON.parse` tries first must never answer otherwise
/// than Jansson: where it gives a value, Jansson gives the same one, byte for
/// byte; where Jansson refuses, it gives none.
final class JSONQuickParsingTests: XCTestCase {
    private func quick(_ bytes: [UInt8]) -> JSON? {
        bytes.withUnsafeBufferPointer { QuickJSONParser.parse($0) }
    }

    private func jansson(_ bytes: [UInt8]) -> JSON? {
        bytes.withUnsafeBufferPointer { try? JSON.parseWithJansson($0) }
    }

    /// Checks the rule for `bytes`; returns whether the quick reader answered.
    @discardableResult
    private func assertAgrees(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let label = String(decoding: bytes.prefix(120), as: UTF8.self).debugDescription
        guard let value = quick(bytes) else { return false }
        guard let expected = jansson(bytes) else {
            XCTFail("the quick reader took what Jansson refuses: \(label)", file: file, line: line)
            return true
        }
        XCTAssertTrue(JSONQuickParsingTests.identical(value, expected), "different values for \(label)", file: file, line: line)
        return true
    }

    private func assertAgrees(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertAgrees(Array(text.utf8), file: file, line: line)
    }

    /// Equal and spelled with the same bytes (Swift's `==` on strings
    /// treats canonically equivalent ones as equal; Jansson does not).
    private static func identical(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): return Array(x.utf8) == Array(y.utf8)
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case let (.object(x), .object(y)):
            return x.count == y.count
                && zip(x, y).allSatisfy { Array($0.0.utf8) == Array($1.0.utf8) && identical($0.1, $1.1) }
        default: return a == b
        }
    }

    func testAnExportedItemIsReadQuicklyToJanssonsValue() {
        let item = JSON.object([
            ("id", .int(3)), ("uid", .string("2b7c4f5e-8a1d-4c3b-9e2f-0a1b2c3d4e5f")),
            ("title", .string("회의록 \"초안\" \\ tab\t nul\u{0} 😀 e\u{301}")), ("note", .null), ("priority", .string("high")),
            ("tags", .array([.string("집"), .string("work")])), ("due_has_time", .bool(false)), ("done", .bool(true)),
            ("repeat", .object([("every", .int(-9_007_199_254_740_991)), ("day", .int(0))])),
        ])
        let bytes = Array(item.serialized.utf8)
        XCTAssertTrue(assertAgrees(bytes))
        XCTAssertTrue(assertAgrees(Array(item.prettySerialized.utf8)), "indented as the export writes it")
        XCTAssertTrue(JSONQuickParsingTests.identical(quick(bytes) ?? .null, item))
    }

    func testWhatJanssonRefusesIsLeftToIt() throws {
        let refused = ["", " ", "[1,2", "[1,2] x", "{} {}", "{\"a\": 1, \"a\": 2}", "{\"a\\u0000b\": 1}", "\"a\nb\"",
                       "01", "-", "--1", "1.", "+1", "truex", "nul", "[1,]", "{\"a\" 1}", "{,}", "{1: 2}", "\"\\x\"",
                       "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud800\\u0041\"", "\"\\u12G4\"", "[\"a\" \"b\"]", "'a'",
                       "9223372036854775808", "[1, -9223372036854775809]", "\u{FEFF}1"]
        for text in refused {
            XCTAssertNil(quick(Array(text.utf8)), text.debugDescription)
            XCTAssertNil(jansson(Array(text.utf8)), text.debugDescription)
        }
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22],
                               [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x00, 0x22],
                               [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], Array("{}".utf8) + [0, 0x41]] {
            XCTAssertNil(quick(bytes), "\(bytes)")
        }
    }

    func testNumbersTheQuickReaderLeavesToJansson() {
        // Integers of 19 digits or more, and doubles at the edges of over- and
        // underflow, are Jansson's to read; `parse` still gives their values.
        for text in ["1234567890123456789", "9223372036854775807", "-9223372036854775808", "0.0", "-0e5",
                     "1e-400", "4.9e-324"] {
            XCTAssertNil(quick(Array(text.utf8)), text)
            XCTAssertNotNil(try? JSON.parse(Array(text.utf8)), text)
        }
        for text in ["0", "-0", "7", "-7", "123456789012345678", "-123456789012345678", "[0,-0,10]", "1.5", "1e2",
                     "-0.5E-1", "2.2250738585072014e-308", "1.7976931348623157e307", "0.1", "123.456e+7",
                     "9007199254740993.0", "[0.30000000000000004, 1E0]", "{\"urgency\": 4.2}"] {
            XCTAssertTrue(assertAgrees(Array(text.utf8)), text)
        }
        XCTAssertNil(quick(Array("1e400".utf8)))
        XCTAssertNil(jansson(Array("1e400".utf8)), "an overflow is Jansson's error")
    }

    func testDeepNestingIsLeftToJansson() {
        let deep = String(repeating: "[", count: QuickJSONParser.deepestNesting + 1)
            + String(repeating: "]", count: QuickJSONParser.deepestNesting + 1)
        XCTAssertNil(quick(Array(deep.utf8)))
        XCTAssertNotNil(try? JSON.parse(Array(deep.utf8)), "Jansson reads it")
        let shallow = String(repeating: "[", count: QuickJSONParser.deepestNesting)
            + String(repeating: "]", count: QuickJSONParser.deepestNesting)
        XCTAssertTrue(assertAgrees(Array(shallow.utf8)))
    }

    func testObjectsWithManyKeysStillRefuseARepeat() {
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }
        XCTAssertTrue(assertAgrees(Array("{\(keys.joined(separator: ", "))}".utf8)))
        XCTAssertNil(quick(Array("{\(keys.joined(separator: ", ")), \"k3\": 1}".utf8)))
    }

    /// Every document made by changing one byte of a few well-formed ones:
    /// a fixed walk over the changes that matter most (quotes, escapes,
    /// digits, brackets, UTF-8 lead and continuation bytes), so the test is
    /// the same at every run.
    func testOneByteChangesOfWellFormedDocumentsAgree() {
        let documents = [
            #"{"title": "회의 \"a\" \\ \/ \b\f\n\r\t \u00e9\ud83d\ude00", "n": [0, -12, true, false, null], "o": {}}"#,
            #"[{"k": "v"}, [], "", -0, 18, {"x": {"y": ["z"]}}, 1.25e+3, -0.5]"#,
        ]
        let replacements: [UInt8] = [0x00, 0x09, 0x0A, 0x20, 0x22, 0x2C, 0x2D, 0x2E, 0x30, 0x31, 0x3A, 0x45, 0x5B,
                                     0x5C, 0x5D, 0x65, 0x75, 0x7B, 0x7D, 0x80, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xFF]
        var answered = 0
        var total = 0
        for document in documents {
            let bytes = Array(document.utf8)
            XCTAssertTrue(assertAgrees(bytes))
            for position in bytes.indices {
                for replacement in replacements where replacement != bytes[position] {
                    var changed = bytes
                    changed[position] = replacement
                    total += 1
                    if assertAgrees(changed) { answered += 1 }
                }
                var shortened = bytes
                shortened.remove(at: position)
                total += 1
                if assertAgrees(shortened) { answered += 1 }
            }
        }
        // Both outcomes are exercised: some changes stay well formed.
        XCTAssertGreaterThan(answered, 0)
        XCTAssertLessThan(answered, total)
    }
}
