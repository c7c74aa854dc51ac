@testable import Notes
import XCTest

final class MarkedTextTests: XCTestCase {
    func testRenderingWrapsEachMarkedPart() {
        let text = MarkedText(text: "대한민국 민국", marks: [2..<4, 5..<7])
        XCTAssertEqual(text.rendered(open: "[", close: "]"), "대한[민국] [민국]")
        XCTAssertEqual(MarkedText(text: "abc", marks: []).rendered(open: "[", close: "]"), "abc")
        XCTAssertEqual(MarkedText(text: "abc", marks: [0..<3]).rendered(open: "<", close: ">"), "<abc>")
    }

    func testMatcherFoldsCaseAndCountsScalars() {
        let matcher = TextMatcher("hello")
        XCTAssertEqual(matcher.ranges(in: TextMatcher.folded("Say HELLO, hello!")), [4..<9, 11..<16])
        XCTAssertEqual(TextMatcher("ÉCOLE").ranges(in: TextMatcher.folded("une école")), [4..<9])
        XCTAssertEqual(TextMatcher("민국").ranges(in: TextMatcher.folded("🇰🇷 대한민국")), [5..<7])
        XCTAssertEqual(TextMatcher("aa").ranges(in: TextMatcher.folded("aaaa")), [0..<2, 2..<4], "no overlaps")
        XCTAssertEqual(TextMatcher("x").ranges(in: []), [])
    }

    func testSnippetsCutLongTextAroundTheMatchOnOneLine() {
        let text = String(repeating: "앞", count: 100) + "\n대한민국\n" + String(repeating: "뒤", count: 100)
        let scalars = text.unicodeScalars.count
        let snippet = Snippet.make(from: text, scalarCount: scalars, around: 103..<105, marks: [103..<105])
        let rendered = snippet.rendered(open: "[", close: "]")
        XCTAssertTrue(rendered.hasPrefix("…" + String(repeating: "앞", count: 17) + " 대한[민국] 뒤"), rendered)
        XCTAssertTrue(rendered.hasSuffix("뒤…"))
        XCTAssertFalse(rendered.contains("\n"))
        XCTAssertEqual(snippet.text.unicodeScalars.count, Snippet.width + 2)
    }

    func testShortTextIsShownWhole() {
        let snippet = Snippet.make(from: "주간회의록", scalarCount: 5, around: 2..<4, marks: [2..<4])
        XCTAssertEqual(snippet.rendered(open: "[", close: "]"), "주간[회의]록")
    }
}
