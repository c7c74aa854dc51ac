import Foundation
import MemoCore
@testable import Notes
import XCTest

final class DueDateParserTests: XCTestCase {
    /// Sunday 2026-11-29 22:00 in Seoul.
    let parser = DueDateParser(now: Timestamp(secondsSince1970: sundayAfternoonUTC), calendar: seoul)

    private func date(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let due = try parser.parse(text)
        XCTAssertFalse(due.hasTime, "\(text) should be date-only", file: file, line: line)
        return due.date(in: seoul).description
    }

    func testTodayTomorrowAndTheKoreanWordsNameTheLocalDates() throws {
        XCTAssertEqual(try date("today"), "2026-11-29")
        XCTAssertEqual(try date("오늘"), "2026-11-29")
        XCTAssertEqual(try date("tomorrow"), "2026-11-30")
        XCTAssertEqual(try date("내일"), "2026-11-30")
        XCTAssertEqual(try date("모레"), "2026-12-01")
        XCTAssertEqual(try date("  Tomorrow \t"), "2026-11-30")
        XCTAssertEqual(try date("TODAY"), "2026-11-29")
    }

    func testADateOnlyDueEndsAtTheLastSecondOfTheLocalDay() throws {
        let due = try parser.parse("today")
        // 2026-11-29 23:59:59 +09:00 is 14:59:59 UTC.
        XCTAssertEqual(due.instant.rfc3339, "2026-11-29T14:59:59Z")
        XCTAssertEqual(due.description(in: seoul), "2026-11-29")
    }

    func testWeekdaysNameTheNextSuchDayStrictlyAfterToday() throws {
        for name in ["monday", "Mon", "MONDAY", "월요일", "월"] {
            XCTAssertEqual(try date(name), "2026-11-30", name)
        }
        for name in ["saturday", "sat", "토요일", "토"] {
            XCTAssertEqual(try date(name), "2026-12-05", name)
        }
        // Today is Sunday: "sunday" is a week away, not today.
        for name in ["sunday", "sun", "일요일", "일"] {
            XCTAssertEqual(try date(name), "2026-12-06", name)
        }
        XCTAssertEqual(try date("wed"), "2026-12-02")
        XCTAssertEqual(try date("목요일"), "2026-12-03")
        XCTAssertEqual(try date("fri"), "2026-12-04")
        XCTAssertEqual(try date("tuesday"), "2026-12-01")
    }

    func testRelativeDaysAndWeeksCountFromToday() throws {
        XCTAssertEqual(try date("+0d"), "2026-11-29")
        XCTAssertEqual(try date("+3d"), "2026-12-02")
        XCTAssertEqual(try date("+2w"), "2026-12-13")
        XCTAssertEqual(try date("+3D"), "2026-12-02")
        XCTAssertEqual(try date("+40d"), "2027-01-08")
    }

    func testAbsoluteDatesAndTimesAreReadInTheLocalZone() throws {
        XCTAssertEqual(try date("2026-12-25"), "2026-12-25")
        XCTAssertEqual(try date("2028-02-29"), "2028-02-29")
        XCTAssertEqual(try date("2020-01-01"), "2020-01-01", "past dates are allowed (already overdue)")
        let timed = try parser.parse("2026-12-25 14:30")
        XCTAssertTrue(timed.hasTime)
        XCTAssertEqual(timed.instant.rfc3339, "2026-12-25T05:30:00Z")
        XCTAssertEqual(timed.description(in: seoul), "2026-12-25 14:30")
        XCTAssertEqual(try parser.parse("2026-12-25 9:05").description(in: seoul), "2026-12-25 09:05")
        XCTAssertEqual(try parser.parse("2026-12-25  00:00").instant.rfc3339, "2026-12-24T15:00:00Z")
    }

    func testTodayFollowsTheCalendarNotUTC() throws {
        // 16:00 UTC Sunday is already 01:00 Monday in Seoul.
        let now = Timestamp(secondsSince1970: sundayAfternoonUTC + 3 * 3600)
        let inSeoul = DueDateParser(now: now, calendar: seoul)
        let inLondon = DueDateParser(now: now, calendar: FixedOffsetCalendar(offsetSeconds: 0))
        XCTAssertEqual(try inSeoul.parse("today").date(in: seoul).description, "2026-11-30")
        XCTAssertEqual(try inLondon.parse("today").date(in: FixedOffsetCalendar(offsetSeconds: 0)).description,
                       "2026-11-29")
        XCTAssertEqual(try inSeoul.parse("sunday").date(in: seoul).description, "2026-12-06")
        XCTAssertEqual(try inSeoul.parse("monday").date(in: seoul).description, "2026-12-07")
    }

    func testAnythingElseIsAUsageErrorThatNamesTheAcceptedForms() {
        let bad = ["", "   ", "yesterday", "next week", "tomorrow 14:00", "+3", "+d", "+3m", "+-3d", "+ 3d",
                   "+100000d", "3d", "2026-13-01", "2026-12-32", "2026-00-10", "2026-02-29", "2026-1-5",
                   "26-12-01", "2026/12/25", "2026-12-25 25:00", "2026-12-25 14:60", "2026-12-25 14",
                   "2026-12-25 14:30 extra", "2026-12-25T14:30", "월요일요일", "월화", "１２３", "+３d",
                   "2026-12-25 1430", "1899-12-31", "today'; DROP TABLE todos; --", "\0", "mon\0day"]
        for text in bad {
            do {
                let due = try parser.parse(text)
                XCTFail("'\(text)' was accepted as \(due)")
            } catch let error as MemoError {
                XCTAssertEqual(error.kind, .usage, text)
                XCTAssertTrue(error.message.en.contains("YYYY-MM-DD") || error.message.en.contains("HH:MM"), text)
                XCTAssertFalse(error.message.ko.isEmpty)
            } catch {
                XCTFail("unexpected \(error)")
            }
        }
    }

    func testTheErrorQuotesTheInputAndListsEveryForm() {
        do {
            _ = try parser.parse("someday")
            XCTFail("accepted")
        } catch let error as MemoError {
            for form in ["someday", "today", "tomorrow", "monday", "+3d", "+2w", "YYYY-MM-DD HH:MM", "오늘", "내일", "모레"] {
                XCTAssertTrue(error.message.en.contains(form), form)
            }
            XCTAssertTrue(error.message.ko.contains("모레"))
            XCTAssertTrue(error.message.ko.contains("someday"))
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testADateThatDoesNotExistSaysSo() {
        do {
            _ = try parser.parse("2026-02-30")
            XCTFail("accepted")
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .usage)
            XCTAssertTrue(error.message.en.contains("no date 2026-02-30"), error.message.en)
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testTheSystemCalendarHandlesDaylightSavingChanges() throws {
        try withTimeZone("America/New_York") {
            let calendar = SystemLocalCalendar()
            // Saturday 2026-03-07 12:00 EST; clocks go forward on Sunday 03-08 at 02:00.
            let now = Timestamp(secondsSince1970: 1_772_902_800)
            XCTAssertEqual(calendar.civil(at: now).minuteDescription, "2026-03-07 12:00")
            let parser = DueDateParser(now: now, calendar: calendar)
            let tomorrow = try parser.parse("tomorrow")
            // The end of 2026-03-08 is 23:59:59 EDT (UTC-4).
            XCTAssertEqual(tomorrow.instant.rfc3339, "2026-03-09T03:59:59Z")
            XCTAssertEqual(tomorrow.description(in: calendar), "2026-03-08")
            // 02:30 does not exist that night: it moves past the gap, no error.
            let skipped = try parser.parse("2026-03-08 02:30")
            XCTAssertEqual(skipped.instant.rfc3339, "2026-03-08T07:30:00Z")
            XCTAssertEqual(try parser.parse("+1w").description(in: calendar), "2026-03-14")
        }
    }
}

/// Runs `body` with the process's TZ set to `zone`, then restores it.
func withTimeZone(_ zone: String, _ body: () throws -> Void) rethrows {
    let previous = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", zone, 1)
    tzset()
    defer {
        if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
        tzset()
    }
    try body()
}
