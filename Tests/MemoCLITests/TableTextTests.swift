@testable import MemoCLI
import XCTest

/// Display widths, shortening to a width, and tables whose columns are
/// sized before their rows are read.
final class TableTextTests: XCTestCase {
    private let plain = TextStyle(isEnabled: false)

    func testWideCharactersTakeTwoColumnsAndMarksNone() {
        XCTAssertEqual(TerminalText.displayWidth("milk"), 4)
        XCTAssertEqual(TerminalText.displayWidth("우유 사기"), 9)
        XCTAssertEqual(TerminalText.displayWidth("漢字かな"), 8)
        XCTAssertEqual(TerminalText.displayWidth("e\u{301}"), 1, "a combining acute accent takes no column")
        XCTAssertEqual(TerminalText.displayWidth("a\u{200B}b"), 2, "a zero-width space takes none")
        // Hangul written as conjoining jamo (ᄒ ᅡ ᆫ) is one wide syllable.
        XCTAssertEqual(TerminalText.displayWidth("\u{1112}\u{1161}\u{11AB}"), 2)
        XCTAssertEqual(TerminalText.displayWidth("👩‍👩‍👧"), 2, "an emoji sequence is drawn as one glyph")
        XCTAssertEqual(TerminalText.displayWidth("ＡＢ"), 4, "full-width Latin")
    }

    func testShortTextIsKeptAndLongTextEndsInAnEllipsis() {
        XCTAssertEqual(TerminalText(line: "milk").truncated(toWidth: 4).plain, "milk")
        XCTAssertEqual(TerminalText(line: "buy milk").truncated(toWidth: 5).plain, "buy …")
        XCTAssertEqual(TerminalText(line: "abc").truncated(toWidth: 1).plain, "…")
        XCTAssertEqual(TerminalText(line: "abc").truncated(toWidth: 0).plain, "")
    }

    func testAWideCharacterThatWouldStraddleTheEdgeGoesWhole() {
        let text = TerminalText(line: "우유 사기")
        XCTAssertEqual(text.truncated(toWidth: 6).plain, "우유 …")
        XCTAssertEqual(text.truncated(toWidth: 4).plain, "우…", "우유 needs 4 columns and the … one more")
        XCTAssertLessThanOrEqual(text.truncated(toWidth: 4).displayWidth, 4)
        for width in 0...9 {
            XCTAssertLessThanOrEqual(text.truncated(toWidth: width).displayWidth, width, "width \(width)")
        }
    }

    func testShorteningKeepsTheCodesSoAColourIsTurnedOff() {
        let red = TextStyle(isEnabled: true).red("overdue today")
        let cut = red.truncated(toWidth: 8)
        XCTAssertEqual(cut.plain, "overdue…")
        XCTAssertTrue(cut.rendered.hasPrefix("\u{1B}[31m"))
        XCTAssertTrue(cut.rendered.hasSuffix("\u{1B}[0m"))
    }

    func testAControlCharacterIsMeasuredAndCutAsItsPicture() {
        let hostile = TerminalText(line: "a\u{1B}[2Jbcdef")
        XCTAssertEqual(hostile.truncated(toWidth: 4).plain, "a␛[…")
        XCTAssertFalse(hostile.truncated(toWidth: 4).rendered.contains("\u{1B}"))
    }

    func testPaddingCountsDisplayColumns() {
        XCTAssertEqual(TerminalText("할 일").padded(toWidth: 7).plain, "할 일  ")
        XCTAssertEqual(TerminalText("7").padded(toWidth: 3, alignment: .right).plain, "  7")
        XCTAssertEqual(TerminalText("toolong").padded(toWidth: 3).plain, "toolong")
    }

    private func columns() -> [TextTable.Column] {
        [.init("ID", width: 3, alignment: .right), .init("DUE", width: 10), .init("PRI", width: 6, isOptional: true),
         .init("TITLE", width: 8)]
    }

    func testColumnsLineUpWithKoreanTitlesAndTheTitleFillsTheRest() {
        let table = TextTable(columns(), totalWidth: 44, style: plain)
        let rows = [table.header.plain,
                    table.row(["7", "today", "high", TerminalText(line: "우유 사기와 빵 사기, 그리고 달걀 한 판")]).plain,
                    table.row(["123", "tomorrow", "", TerminalText(line: "milk")]).plain]
        XCTAssertEqual(rows[0], " ID  DUE         PRI     TITLE")
        XCTAssertEqual(rows[1], "  7  today       high    우유 사기와 빵 사…")
        XCTAssertEqual(rows[2], "123  tomorrow            milk")
        for row in rows { XCTAssertLessThanOrEqual(TerminalText.displayWidth(row), 44, row) }
    }

    func testOptionalColumnsMakeWayOnANarrowTerminal() {
        let table = TextTable(columns(), totalWidth: 30, style: plain)
        XCTAssertEqual(table.header.plain, " ID  DUE         TITLE")
        let row = table.row(["7", "today", "high", TerminalText(line: "우유 사기와 빵 사기")]).plain
        XCTAssertEqual(row, "  7  today       우유 사기와 …")
        XCTAssertLessThanOrEqual(TerminalText.displayWidth(row), 30)
    }

    func testWithoutATerminalNothingIsShortened() {
        let table = TextTable(columns(), totalWidth: nil, style: plain)
        let title = String(repeating: "긴 제목 ", count: 40)
        XCTAssertTrue(table.row(["1", "", "", TerminalText(line: title)]).plain.hasSuffix(title))
    }

    func testAnEmptyColumnWithoutAHeaderTakesNoRoom() {
        let table = TextTable([.init("ID", width: 1), .init("", width: 0), .init("TITLE", width: 8)],
                              totalWidth: nil, style: plain)
        XCTAssertEqual(table.row(["1", "", "milk"]).plain, "1   milk")
    }

    func testTheHeaderIsBoldOnlyWithColour() {
        XCTAssertTrue(TextTable(columns(), totalWidth: 80, style: TextStyle(isEnabled: true)).header.rendered
            .hasPrefix("\u{1B}[1m"))
        XCTAssertFalse(TextTable(columns(), totalWidth: 80, style: plain).header.rendered.contains("\u{1B}"))
    }
}
