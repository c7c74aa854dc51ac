import MemoCore
import XCTest

/// Lines that fit a width, measured in display columns.
final class TextWrappingTests: XCTestCase {
    func testWordsFillEachLineUpToTheWidth() {
        XCTAssertEqual(TextWrapping.lines("Everything you have to do, at a glance, anywhere", width: 38),
                       ["Everything you have to do, at a", "glance, anywhere"])
        XCTAssertEqual(TextWrapping.lines("short", width: 38), ["short"])
        XCTAssertEqual(TextWrapping.lines("", width: 10), [""])
    }

    func testHangulIsMeasuredAsTwoColumnsALetter() {
        let lines = TextWrapping.lines("하나라도 놓치지 않도록 음성 메모로 남기세요", width: 12)
        XCTAssertEqual(lines, ["하나라도", "놓치지", "않도록 음성", "메모로", "남기세요"])
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 12, line) }
    }

    func testRunsOfSpacesInsideALineAreKept() {
        XCTAssertEqual(TextWrapping.lines("[s] Skip   [q] Quit", width: 40), ["[s] Skip   [q] Quit"])
        XCTAssertEqual(TextWrapping.lines("[s] Skip   [q] Quit", width: 10), ["[s] Skip", "[q] Quit"])
    }

    func testAWordWiderThanTheLineIsBrokenWhereItMust() {
        XCTAssertEqual(TextWrapping.lines("abcdefghij xy", width: 4), ["abcd", "efgh", "ij", "xy"])
        XCTAssertEqual(TextWrapping.lines("가나다라", width: 3), ["가", "나", "다", "라"])
        XCTAssertEqual(TextWrapping.lines("abc", width: 0), ["a", "b", "c"], "a width under 1 counts as 1")
    }

    func testLineBreaksAreKept() {
        XCTAssertEqual(TextWrapping.lines("one two\nthree", width: 20), ["one two", "three"])
        XCTAssertEqual(TextWrapping.lines("a\n\nb", width: 20), ["a", "", "b"])
    }

    func testDisplayWidthCountsWideCharactersTwiceAndMarksNever() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("한글"), 4)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
    }
}
