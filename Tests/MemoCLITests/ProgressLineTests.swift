@testable import MemoCLI
import XCTest

/// The progress line as text, exactly, at the widths a terminal may have,
/// and when it is redrawn.
final class ProgressLineTests: XCTestCase {
    private func line(_ done: Int64, of total: Int64, _ label: String, columns: Int) -> String {
        ProgressLine.text(done: done, of: total, label: label, columns: columns).plain
    }

    func testAt120ColumnsTheBarIsThirtyWideAndTheLabelWhole() {
        XCTAssertEqual(line(42, of: 100, "backing up", columns: 120),
                       "[==========>                 ]  42% backing up")
    }

    func testAt40ColumnsTheBarShrinksAndTheLineStopsBeforeTheLastColumn() {
        XCTAssertEqual(line(42, of: 100, "backing up", columns: 40), "[====>         ]  42% backing up")
        let long = line(1, of: 2, "a-very-long-file-name-of-a-recording.flac", columns: 40)
        XCTAssertEqual(long, "[======>       ]  50% a-very-long-file…")
        XCTAssertEqual(TerminalText.displayWidth(long), 39)
    }

    func testAKoreanLabelIsShortenedByDisplayWidth() {
        let korean = line(42, of: 100, "음성 메모를 내보내는 중입니다 회의록", columns: 40)
        XCTAssertEqual(korean, "[====>         ]  42% 음성 메모를 내보…")
        XCTAssertEqual(TerminalText.displayWidth(korean), 39, "Hangul counted two columns wide")
        // A wide character that would straddle the edge goes whole.
        let straddling = line(42, of: 100, "x가나다라마바사아자", columns: 40)
        XCTAssertEqual(straddling, "[====>         ]  42% x가나다라마바사…")
        XCTAssertEqual(TerminalText.displayWidth(straddling), 38)
    }

    func testEveryWidthFitsBeforeTheLastColumn() {
        for columns in 1...200 {
            for label in ["", "backup", "음성 메모 내보내는 중", String(repeating: "x", count: 300)] {
                let text = line(7, of: 9, label, columns: columns)
                XCTAssertLessThanOrEqual(TerminalText.displayWidth(text), max(columns - 1, 4), "\(columns) \(label)")
                XCTAssertTrue(text.contains("77%"), text)
            }
        }
    }

    func testANarrowTerminalGetsOnlyThePercentage() {
        XCTAssertEqual(line(5, of: 10, "label", columns: 10), " 50%")
        XCTAssertEqual(line(5, of: 10, "label", columns: 16), " 50%")
        XCTAssertEqual(line(5, of: 10, "label", columns: 17), "[>  ]  50% label")
    }

    func testTheEndsAndOutOfRangeFigures() {
        XCTAssertEqual(line(0, of: 10, "", columns: 40), "[              ]   0%")
        XCTAssertEqual(line(10, of: 10, "", columns: 40), "[==============] 100%")
        XCTAssertEqual(line(11, of: 10, "", columns: 40), "[==============] 100%", "more than the total is finished")
        XCTAssertEqual(line(-3, of: 10, "", columns: 40), "[              ]   0%")
        XCTAssertEqual(line(5, of: 0, "", columns: 40), "[              ]   0%", "an unknown total shows nothing done")
        XCTAssertEqual(ProgressLine.percentage(done: 999, of: 1000), 99, "100% only when finished")
        XCTAssertEqual(ProgressLine.percentage(done: Int64.max - 1, of: Int64.max), 99, "no overflow")
    }

    func testControlCharactersInALabelAreShownNotObeyed() {
        let text = ProgressLine.text(done: 1, of: 2, label: "a\u{1B}[2Jb\nc", columns: 80)
        XCTAssertFalse(text.rendered.unicodeScalars.contains { $0.value < 0x20 }, text.rendered)
        XCTAssertTrue(text.plain.hasSuffix("a␛[2Jb␊c"), text.plain)
    }

    func testALineAResizeReflowedIsErasedFromItsFirstRow() {
        XCTAssertEqual(ProgressLine.returnToStart(drawnWidth: 39, columns: 40).rendered, "\r\u{1B}[J")
        XCTAssertEqual(ProgressLine.returnToStart(drawnWidth: 46, columns: 120).rendered, "\r\u{1B}[J")
        XCTAssertEqual(ProgressLine.returnToStart(drawnWidth: 46, columns: 40).rendered, "\u{1B}[1A\r\u{1B}[J",
                       "46 columns on 40 take two rows; the cursor is on the second")
        XCTAssertEqual(ProgressLine.returnToStart(drawnWidth: 119, columns: 40).rendered, "\u{1B}[2A\r\u{1B}[J")
        XCTAssertEqual(ProgressLine.returnToStart(drawnWidth: 0, columns: 40).rendered, "\r\u{1B}[J", "nothing drawn yet")
    }

    // MARK: - When to redraw

    func testNothingIsDrawnBeforeTheDelayThenAtMostTenFramesASecond() {
        var schedule = ProgressSchedule(start: 100)
        var now = 100.5
        let frame = { (schedule: inout ProgressSchedule, done: Int64) in
            schedule.frame(done: done, of: 1000, label: "x", now: { now }, columns: { 80 })
        }
        XCTAssertNil(frame(&schedule, 100), "quick work shows nothing")
        now = 101.0
        XCTAssertEqual(frame(&schedule, 200)?.plain, "[====>                       ]  20% x")
        now = 101.05
        XCTAssertNil(frame(&schedule, 300), "a tenth of a second has not passed")
        now = 101.2
        XCTAssertNotNil(frame(&schedule, 400))
    }

    func testTheClockIsReadOncePerPermilleAndTheWidthOncePerFrame() {
        var schedule = ProgressSchedule(start: 0, delay: 0, interval: 0)
        var clockReads = 0
        var widthReads = 0
        for done in 0..<100_000 as Range<Int64> {
            _ = schedule.frame(done: done, of: 100_000, label: "x",
                               now: { clockReads += 1; return Double(done) }, columns: { widthReads += 1; return 80 })
        }
        XCTAssertEqual(clockReads, 1000, "one per permille, not one per item")
        XCTAssertEqual(widthReads, 1000)
    }

    func testAnUnchangedLineIsNotDrawnAgainButANewWidthIs() {
        var schedule = ProgressSchedule(start: 0, delay: 0, interval: 0)
        var columns = 80
        XCTAssertNotNil(schedule.frame(done: 100, of: 1000, label: "x", now: { 1 }, columns: { columns }))
        XCTAssertNil(schedule.frame(done: 101, of: 1000, label: "x", now: { 2 }, columns: { columns }),
                     "10.1% draws as 10%, as before")
        columns = 40
        XCTAssertEqual(schedule.frame(done: 102, of: 1000, label: "x", now: { 3 }, columns: { columns })?.plain,
                       "[>             ]  10% x", "a resize is followed at the next frame")
    }
}
