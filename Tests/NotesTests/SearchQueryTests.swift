import MemoCore
@testable import Notes
import XCTest

final class SearchQueryTests: XCTestCase {
    func testThreeOrMoreCharactersTakeTheTrigramPathCountingCharactersNotBytes() throws {
        XCTAssertEqual(try SearchQuery("회의").path, .exact, "two characters, six bytes")
        XCTAssertEqual(try SearchQuery("회의록").path, .trigram)
        XCTAssertEqual(try SearchQuery("a").path, .exact)
        XCTAssertEqual(try SearchQuery("ab").path, .exact)
        XCTAssertEqual(try SearchQuery("abc").path, .trigram)
        XCTAssertEqual(try SearchQuery("🎉🎉").path, .exact)
        XCTAssertEqual(try SearchQuery("a b").path, .trigram)
    }

    func testSurroundingWhiteSpaceIsDroppedAndInnerSpaceKept() throws {
        XCTAssertEqual(try SearchQuery("  민국 \n").text, "민국")
        XCTAssertEqual(try SearchQuery("  민국 \n").path, .exact)
        XCTAssertEqual(try SearchQuery(" a  b ").text, "a  b")
    }

    func testAnEmptyQueryIsAUsageError() {
        for text in ["", "   ", "\n\t", "\u{3000}"] {
            XCTAssertThrowsError(try SearchQuery(text), text.debugDescription) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage)
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

    func testTheMatchExpressionIsOneQuotedStringWithQuotesDoubled() throws {
        XCTAssertEqual(try SearchQuery("NEAR(a b)").matchExpression, "\"NEAR(a b)\"")
        XCTAssertEqual(try SearchQuery("say \"hi\"").matchExpression, "\"say \"\"hi\"\"\"")
        XCTAssertEqual(try SearchQuery("\"\"\"").matchExpression, "\"\"\"\"\"\"\"\"")
    }

    func testAQueryHoldingANulTakesTheExactPath() throws {
        XCTAssertEqual(try SearchQuery("abc\0def").path, .exact)
    }

    func testTheExactNeedleLowerCasesASCIIOnly() throws {
        XCTAssertEqual(try SearchQuery("AbÉ").exactNeedle, "abÉ")
        XCTAssertEqual(try SearchQuery("회의").exactNeedle, "회의")
    }

    func testTheLikePatternEscapesItsWildcards() throws {
        XCTAssertEqual(try SearchQuery("a%").likePattern, "%a\\%%")
        XCTAssertEqual(try SearchQuery("_\\").likePattern, "%\\_\\\\%")
        XCTAssertEqual(try SearchQuery("회의").likePattern, "%회의%")
    }
}
