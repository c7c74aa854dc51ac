import MemoCore
@testable import MemoCLI
import XCTest

final class TimerRenderingTests: XCTestCase {
    func testClockShowsMinutesAndSecondsAndHoursOnlyWhenNeeded() {
        XCTAssertEqual(TimerRendering.clock(0), "0:00")
        XCTAssertEqual(TimerRendering.clock(59.9), "0:59")
        XCTAssertEqual(TimerRendering.clock(90), "1:30")
        XCTAssertEqual(TimerRendering.clock(3600), "1:00:00")
        XCTAssertEqual(TimerRendering.clock(36_000 + 62), "10:01:02")
        XCTAssertEqual(TimerRendering.clock(-5), "0:00", "never negative")
    }

    func testCountdownsRoundUpSoZeroAppearsOnlyAtTheEnd() {
        XCTAssertEqual(TimerRendering.clock(0.01, roundingUp: true), "0:01")
        XCTAssertEqual(TimerRendering.clock(59.2, roundingUp: true), "1:00")
        XCTAssertEqual(TimerRendering.clock(0, roundingUp: true), "0:00")
    }

    func testStopwatchesShowTenths() {
        XCTAssertEqual(TimerRendering.clock(62.37, tenths: true), "1:02.3")
        XCTAssertEqual(TimerRendering.clock(0.05, tenths: true), "0:00.0")
        XCTAssertEqual(TimerRendering.clock(3599.99, tenths: true), "59:59.9")
    }

    func testHangulTakesTwoColumns() {
        XCTAssertEqual(TerminalText.displayWidth("tea"), 3)
        XCTAssertEqual(TerminalText.displayWidth("라면"), 4)
        XCTAssertEqual(TerminalText.displayWidth("카운트다운 1"), 12)
    }
}
