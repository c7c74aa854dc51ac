import MemoCore
@testable import MemoKit
import XCTest

/// The line merge sync uses for memo texts changed on two devices.
final class TextMergeTests: XCTestCase {
    private func merge(_ base: String, _ ours: String, _ theirs: String) -> TextMerge.Outcome {
        TextMerge.merge(base: base, ours: ours, theirs: theirs)
    }

    func testOneSideChangedTakesThatSide() {
        XCTAssertEqual(merge("a\nb\n", "a\nb\n", "a\nB\n"), .merged("a\nB\n"))
        XCTAssertEqual(merge("a\nb\n", "A\nb\n", "a\nb\n"), .merged("A\nb\n"))
    }

    func testEqualChangesAreNoConflict() {
        XCTAssertEqual(merge("a\n", "same\n", "same\n"), .merged("same\n"))
        XCTAssertEqual(merge("a\nb\nc\n", "a\nX\nc\n", "a\nX\nc\nd\n"), .merged("a\nX\nc\nd\n"))
    }

    func testChangesOfDifferentLinesBothStay() {
        XCTAssertEqual(merge("one\ntwo\nthree\n", "ONE\ntwo\nthree\n", "one\ntwo\nTHREE\n"), .merged("ONE\ntwo\nTHREE\n"))
        XCTAssertEqual(merge("one\ntwo\n", "zero\none\ntwo\n", "one\ntwo\nthree\n"), .merged("zero\none\ntwo\nthree\n"))
        XCTAssertEqual(merge("one\ntwo\nthree\n", "one\nthree\n", "one\ntwo\nthree\nfour\n"), .merged("one\nthree\nfour\n"),
                       "a removal on one side and an addition on the other")
    }

    func testChangesOfTheSameLinesConflict() {
        XCTAssertEqual(merge("one\ntwo\nthree\n", "one\nTWO\nthree\n", "one\n2\nthree\n"), .conflict)
        XCTAssertEqual(merge("a\nb\n", "a\nx\nb\n", "a\ny\nb\n"), .conflict, "two insertions at one place")
        XCTAssertEqual(merge("a\nb\n", "a\n", "a\nB\n"), .conflict, "a line removed on one side, changed on the other")
    }

    func testTextsComeBackByteForByte() {
        // No final line break, CRLF, Korean and emoji survive.
        XCTAssertEqual(merge("첫 줄\r\n가운데\r\n셋째 줄", "첫 줄 🙂\r\n가운데\r\n셋째 줄", "첫 줄\r\n가운데\r\n셋째 줄 끝"),
                       .merged("첫 줄 🙂\r\n가운데\r\n셋째 줄 끝"))
        // Changes of adjacent lines touch one stretch: a conflict, as diff3 has it.
        XCTAssertEqual(merge("a\nb", "A\nb", "a\nB"), .conflict)
        XCTAssertEqual(merge("", "a", "b"), .conflict)
        XCTAssertEqual(merge("", "", "b"), .merged("b"))
    }

    func testTextsTooLargeToMatchConflictRatherThanTakeLong() {
        let base = (0..<3_000).map { "line \($0)" }.joined(separator: "\n")
        let ours = (0..<3_000).map { "ours \($0)" }.joined(separator: "\n")
        let theirs = (0..<3_000).map { "theirs \($0)" }.joined(separator: "\n")
        XCTAssertEqual(merge(base, ours, theirs), .conflict)
    }
}

/// The hybrid clock that orders concurrent changes of one field.
final class HybridClockTests: XCTestCase {
    func testAStampFollowsTheLatestSeenWhateverTheWallClockSays() {
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        XCTAssertEqual(HybridClock.next(after: 0, now: now), 1_800_000_000_000_000)
        let ahead: Int64 = 1_900_000_000_000_000
        XCTAssertEqual(HybridClock.next(after: ahead, now: now), ahead + 1, "a slow clock still stamps after what it saw")
    }

    func testTheHubClampsStampsAheadOfItsClock() {
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        let dayAhead: Int64 = 1_800_086_400_000_000
        XCTAssertEqual(HybridClock.clamped(dayAhead, latest: 5, now: now), 1_800_000_000_000_000)
        XCTAssertEqual(HybridClock.clamped(42, latest: 5, now: now), 42, "a stamp behind is kept")
        XCTAssertEqual(HybridClock.clamped(-3, latest: 5, now: now), 0)
    }
}
