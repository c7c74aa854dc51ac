@testable import MemoCore
import XCTest

final class TagsTests: XCTestCase {
    func testTagsAreTrimmedLoseALeadingHashAndRepeatsInAnyCase() throws {
        XCTAssertEqual(try Tags.normalized([" work ", "#집", "Work", "WORK", "집", "📌"]), ["work", "집", "📌"])
    }

    func testEmptyTagsAndTagsWithSpacesOrCommasAreUsageErrors() {
        for bad in ["", "  ", "#", "two words", "a,b", "tab\there", "line\nbreak", "nul\0"] {
            XCTAssertThrowsError(try Tags.normalized(bad), bad) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, bad)
            }
        }
    }

    func testEveryWhitespaceScalarHasABytePreCheckedTags() {
        var whitespace = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { continue }
            whitespace += 1
            XCTAssertTrue(Tags.mayHoldWhitespaceNulOrComma(String(Character(scalar)).utf8), "U+\(String(value, radix: 16))")
        }
        XCTAssertGreaterThan(whitespace, 20)
        XCTAssertTrue(Tags.mayHoldWhitespaceNulOrComma("a,b".utf8))
        XCTAssertTrue(Tags.mayHoldWhitespaceNulOrComma("a\0b".utf8))
        XCTAssertFalse(Tags.mayHoldWhitespaceNulOrComma("회의록-2026_📌".utf8))
    }

    func testTheQuickAnswerIsTheCarefulOne() {
        let pieces = ["", "a", "집", "#", "##", "\u{301}", "📌", "👨‍👩‍👧", " ", "\t", "\u{A0}", "\u{3000}", "\u{2028}",
                      "\u{85}", ",", "\0", "é", "Work", "\r\n", "\u{200B}", "\u{FEFF}", "ー", "…"]
        for first in pieces {
            for second in pieces {
                for third in ["", "x", "#", " ", "\u{301}"] {
                    let raw = first + second + third
                    XCTAssertEqual(outcome { try Tags.normalized(raw) }, outcome { try Tags.carefullyNormalized(raw) }, raw.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
                }
            }
        }
    }

    /// The tag, or the kind of error, as one comparable text.
    private func outcome(_ body: () throws -> String) -> String {
        do { return "tag " + (try body()) } catch { return "error \((error as? MemoError)?.kind.rawValue ?? "other")" }
    }
}
