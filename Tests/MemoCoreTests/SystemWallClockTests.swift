import Foundation
import MemoCore
import XCTest

final class SystemWallClockTests: XCTestCase {
    func testNowLiesBetweenTwoReadingsOfFoundationsClock() {
        let before = Date().timeIntervalSince1970
        let now = SystemWallClock().now().secondsSince1970
        let after = Date().timeIntervalSince1970
        // Both read CLOCK_REALTIME; the slack covers only rounding of the two representations.
        XCTAssertGreaterThanOrEqual(now, before - 0.001)
        XCTAssertLessThanOrEqual(now, after + 0.001)
    }

    func testNowHasSubsecondPrecision() {
        // Whole seconds every time for twenty readings would mean tv_nsec was dropped.
        let readings = (0..<20).map { _ in SystemWallClock().now().secondsSince1970 }
        XCTAssertTrue(readings.contains { $0 != $0.rounded(.down) }, "\(readings)")
    }

    func testNowRendersAsThisCentury() {
        let text = SystemWallClock().now().rfc3339
        XCTAssertTrue(text.hasPrefix("20"), text)
    }
}
