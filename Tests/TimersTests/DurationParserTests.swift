import MemoCore
import Timers
import XCTest

final class DurationParserTests: XCTestCase {
    private func seconds(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Double? {
        do {
            return try DurationParser.seconds(in: text)
        } catch {
            XCTFail("'\(text)' was refused: \(error)", file: file, line: line)
            return nil
        }
    }

    func testSecondsMinutesAndHoursWithUnitLetters() {
        XCTAssertEqual(seconds("90s"), 90)
        XCTAssertEqual(seconds("25m"), 1500)
        XCTAssertEqual(seconds("2h"), 7200)
    }

    func testCombinedUnitsWithAndWithoutSpaces() {
        XCTAssertEqual(seconds("1h30m"), 5400)
        XCTAssertEqual(seconds("1h 30m"), 5400)
        XCTAssertEqual(seconds("1h30m15s"), 5415)
        XCTAssertEqual(seconds("1h 30m 15s"), 5415)
        XCTAssertEqual(seconds("2m5s"), 125)
        XCTAssertEqual(seconds("1h 15s"), 3615)
    }

    func testSpelledOutUnitsInAnyCaseAndSpaceBeforeTheUnit() {
        XCTAssertEqual(seconds("25 min"), 1500)
        XCTAssertEqual(seconds("1 hour 5 minutes"), 3900)
        XCTAssertEqual(seconds("2 HOURS"), 7200)
        XCTAssertEqual(seconds("10 Sec"), 10)
        XCTAssertEqual(seconds("3 mins 4 secs"), 184)
        XCTAssertEqual(seconds("1hr"), 3600)
    }

    func testClockFormsAreMinutesSecondsOrHoursMinutesSeconds() {
        XCTAssertEqual(seconds("1:30"), 90)
        XCTAssertEqual(seconds("0:05"), 5)
        XCTAssertEqual(seconds("90:00"), 5400)
        XCTAssertEqual(seconds("1:00:00"), 3600)
        XCTAssertEqual(seconds("2:03:04"), 7384)
        XCTAssertEqual(seconds("0:00:01"), 1)
    }

    func testBareNumberMeansMinutes() {
        XCTAssertEqual(seconds("25"), 1500)
        XCTAssertEqual(seconds("1"), 60)
        XCTAssertEqual(seconds("1.5"), 90)
    }

    func testKoreanUnitsAloneCombinedAndSpaced() {
        XCTAssertEqual(seconds("25분"), 1500)
        XCTAssertEqual(seconds("30초"), 30)
        XCTAssertEqual(seconds("2시간"), 7200)
        XCTAssertEqual(seconds("1시간 30분"), 5400)
        XCTAssertEqual(seconds("1시간30분"), 5400)
        XCTAssertEqual(seconds("1시간 30분 10초"), 5410)
        XCTAssertEqual(seconds("5 분"), 300)
    }

    func testDecimalFractionsInUnitForms() {
        XCTAssertEqual(seconds("1.5h"), 5400)
        XCTAssertEqual(seconds("0.5s"), 0.5)
        XCTAssertEqual(seconds("2.25m"), 135)
    }

    func testSurroundingWhitespaceIsIgnored() {
        XCTAssertEqual(seconds("  25m \n"), 1500)
        XCTAssertEqual(seconds("\t1:30 "), 90)
    }

    func testTheLongestAcceptedDurationIsOneYear() {
        XCTAssertEqual(seconds("8760h"), DurationParser.maximumSeconds)
    }

    func testUnreadableTextIsAUsageErrorNamingTheForms() {
        for text in ["", "   ", "abc", "m", "25x", "1h30", "h30m", "1.m", ".5m", "1..5m", "1e3s", "1,5m", "25 m x",
                     "1:3", "1:60", "1:5a", "1:", ":30", "1::30", "1:00:60", "1:60:00", "1:00:00:00", "a:30",
                     "1시", "1 시간 반", "30m 1h", "1m 1m", "5s 5m", "1h 2h", "25 분 분", "１０m", "25mm", "0x10"] {
            let error = assertMemoError(.usage) { try DurationParser.seconds(in: text) }
            XCTAssertTrue(error?.message.en.contains("1h 30m, 1:30 (m:ss)") ?? false, "'\(text)': \(String(describing: error))")
            XCTAssertTrue(error?.message.ko.contains("1시간 30분") ?? false, "'\(text)'")
        }
    }

    func testNegativeDurationsAreRefused() {
        for text in ["-5m", "-1", "-1:30", "- 5m", "5m -1s", "+5m"] {
            let error = assertMemoError(.usage) { try DurationParser.seconds(in: text) }
            XCTAssertTrue(error?.message.en.contains("is not a duration") ?? false, "'\(text)'")
        }
    }

    func testZeroIsRefusedInEveryForm() {
        for text in ["0", "0s", "0m", "0h 0m", "0:00", "0:00:00", "0분", "0.0", "0h0m0s", "0.0001s", "0.00001"] {
            let error = assertMemoError(.usage) { try DurationParser.seconds(in: text) }
            XCTAssertTrue(error?.message.en.contains("at least a millisecond") ?? false, "'\(text)': \(String(describing: error))")
            XCTAssertTrue(error?.message.en.contains("25m") ?? false, "'\(text)' names the forms")
        }
    }

    func testDurationsOverOneYearAndOverflowingNumbersAreRefused() {
        let huge = String(repeating: "9", count: 400)
        for text in ["8761h", "525601", "99999999999999999999h", huge + "s", huge, "9999999999:00:00", "366시간 525600분"] {
            let error = assertMemoError(.usage) { try DurationParser.seconds(in: text) }
            XCTAssertTrue(error?.message.en.contains("limit of one year") ?? false, "'\(text.prefix(30))': \(String(describing: error))")
        }
    }
}
