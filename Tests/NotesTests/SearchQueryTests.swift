import MemoCore
@testable import Notes
import XCTest

final class SearchQueryTests: XCTestCase {
    private func terms(_ text: String) throws -> [String] {
        try SearchQuery(text).terms
    }

    func testWhiteSpaceSeparatesWordsAndEachIsKeptOnce() throws {
        XCTAssertEqual(try terms("report 초안"), ["report", "초안"])
        XCTAssertEqual(try terms("  a \t b\n\u{3000}c  "), ["a", "b", "c"])
        XCTAssertEqual(try terms("회의 회의 회의록"), ["회의", "회의록"])
        XCTAssertEqual(try terms("NEAR(a b)"), ["NEAR(a", "b)"])
    }

    func testSurroundingWhiteSpaceIsDroppedFromTheText() throws {
        XCTAssertEqual(try SearchQuery("  민국 \n").text, "민국")
        XCTAssertEqual(try SearchQuery(" a  b ").text, "a  b")
    }

    func testQuotesMakeAPhraseKeptAsWritten() throws {
        XCTAssertEqual(try terms("\"weekly report\""), ["weekly report"])
        XCTAssertEqual(try terms("\"a  b\" c"), ["a  b", "c"])
        XCTAssertEqual(try terms("x\"y z\"w"), ["xy zw"], "quotes inside a word, as in a shell")
        XCTAssertEqual(try terms("\"\" a"), ["a"], "an empty phrase is nothing")
        XCTAssertEqual(try terms("\"  \""), ["  "], "white space in quotes is something to find")
        XCTAssertEqual(try terms("\"회의\" 회의"), ["회의"])
    }

    func testABackslashMakesAQuoteOrABackslashPlainText() throws {
        XCTAssertEqual(try terms("\\\""), ["\""])
        XCTAssertEqual(try terms("say \\\"hi\\\""), ["say", "\"hi\""])
        XCTAssertEqual(try terms("\\\\"), ["\\"])
        XCTAssertEqual(try terms("\\\\\"a b\""), ["\\a b"], "an escaped backslash does not escape the quote")
        XCTAssertEqual(try terms("\"a \\\" b\""), ["a \" b"], "an escaped quote inside a phrase")
        XCTAssertEqual(try terms("a\\b \\"), ["a\\b", "\\"], "before anything else a backslash is itself")
    }

    func testAQuoteWithoutAPartnerIsText() throws {
        XCTAssertEqual(try terms("5\""), ["5\""])
        XCTAssertEqual(try terms("\""), ["\""])
        XCTAssertEqual(try terms("\"unclosed phrase"), ["\"unclosed", "phrase"])
        XCTAssertEqual(try terms("\"a b\" \"c"), ["a b", "\"c"], "the last one is the odd one")
        XCTAssertEqual(try terms("\"\"\""), ["\""])
    }

    func testOtherSyntaxIsText() throws {
        XCTAssertEqual(try terms("* - AND OR NOT NEAR ( ) : ^ +"), ["*", "-", "AND", "OR", "NOT", "NEAR", "(", ")", ":", "^", "+"])
        XCTAssertEqual(try terms("title:x col:on"), ["title:x", "col:on"])
    }

    func testAnEmptyQueryIsAUsageError() {
        for text in ["", "   ", "\n\t", "\u{3000}", "\"\"", "\"\" \"\""] {
            XCTAssertThrowsError(try SearchQuery(text), text.debugDescription) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage)
                XCTAssertEqual((error as? MemoError)?.message.en, "the search query is empty")
            }
        }
    }

    func testAQueryLongerThanTheLimitIsAUsageErrorAndTheLimitItselfIsFine() throws {
        XCTAssertEqual(try SearchQuery(String(repeating: "가", count: SearchQuery.maximumLength)).text.count,
                       SearchQuery.maximumLength)
        for text in [String(repeating: "가나다 abc ", count: 8000), String(repeating: "%", count: 30_000),
                     String(repeating: "👩‍👩‍👧", count: SearchQuery.maximumLength + 1),
                     String(repeating: "x", count: SearchQuery.maximumLength + 1)] {
            XCTAssertThrowsError(try SearchQuery(text)) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage)
                XCTAssertTrue((error as? MemoError)?.message.en.hasPrefix("the search query is too long") ?? false)
            }
        }
    }

    func testAllOrAnyDecidesWhetherFieldsMatch() throws {
        let all = try SearchQuery("report 초안")
        XCTAssertTrue(all.isMatched(by: ["주간 REPORT", nil, "초안"]), "words in different fields")
        XCTAssertFalse(all.isMatched(by: ["주간 REPORT", nil, ""]))
        let any = try SearchQuery("report 초안", combination: .any)
        XCTAssertTrue(any.isMatched(by: ["주간 REPORT", nil, ""]))
        XCTAssertFalse(any.isMatched(by: ["초 안", "re port", nil]))
        let phrase = try SearchQuery("\"weekly report\"")
        XCTAssertTrue(phrase.isMatched(by: ["the Weekly Report"]))
        XCTAssertFalse(phrase.isMatched(by: ["weekly  report"]))
        XCTAssertFalse(phrase.isMatched(by: ["weekly", "report"]), "a phrase stays in one field")
    }

    func testAPhraseForTheIndexDoublesQuotesAndEscapesWhatFTS5CannotRead() {
        XCTAssertEqual(SearchPhrase.quoted("ab"), "\"ab\"")
        XCTAssertEqual(SearchPhrase.quoted("a\"b"), "\"a\"\"b\"")
        XCTAssertEqual(SearchPhrase.quoted("a\0b"), "\"a\u{4}0b\"")
        XCTAssertEqual(SearchPhrase.quoted("a\u{4}b"), "\"a\u{4}\u{4}b\"")
    }
}
