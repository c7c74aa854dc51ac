import Foundation
import MemoCore
@testable import Notes
import XCTest

final class LocalCalendarTests: XCTestCase {
    func testCivilDateArithmeticAgreesWithGmtimeForEveryDayOfTwoCenturies() {
        // 1900-01-01 to 2100-12-31, one day at a time.
        for days in Int64(-25_567)...Int64(47_846) {
            var seconds = time_t(days * 86_400)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let date = CivilDate(daysSince1970: days)
            guard date.year == Int(parts.tm_year) + 1900, date.month == Int(parts.tm_mon) + 1,
                  date.day == Int(parts.tm_mday), date.weekday == Int(parts.tm_wday),
                  date.daysSince1970 == days else {
                XCTFail("day \(days): got \(date), weekday \(date.weekday)")
                return
            }
        }
    }

    func testValidityKnowsMonthLengthsAndLeapYears() {
        XCTAssertTrue(CivilDate(year: 2028, month: 2, day: 29).isValid)
        XCTAssertTrue(CivilDate(year: 2000, month: 2, day: 29).isValid)
        XCTAssertFalse(CivilDate(year: 1900, month: 2, day: 29).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 2, day: 29).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 4, day: 31).isValid)
        XCTAssertTrue(CivilDate(year: 2026, month: 12, day: 31).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 13, day: 1).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 1, day: 0).isValid)
    }

    func testAddingDaysCrossesMonthAndYearEnds() {
        XCTAssertEqual(CivilDate(year: 2026, month: 12, day: 31).adding(days: 1).description, "2027-01-01")
        XCTAssertEqual(CivilDate(year: 2028, month: 2, day: 28).adding(days: 1).description, "2028-02-29")
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 1).adding(days: -1).description, "2026-02-28")
    }

    func testFixedOffsetCalendarRoundTripsEveryMinuteOfADay() {
        let calendar = FixedOffsetCalendar(offsetSeconds: 9 * 3600)
        let start = sundayAfternoonUTC - 13 * 3600
        for minute in 0..<(24 * 60) {
            let instant = Timestamp(secondsSince1970: start + Double(minute * 60))
            XCTAssertEqual(calendar.instant(of: calendar.civil(at: instant)), instant)
        }
        XCTAssertEqual(calendar.civil(at: Timestamp(secondsSince1970: sundayAfternoonUTC)).minuteDescription,
                       "2026-11-29 22:00")
    }

    func testFixedOffsetCalendarHandlesInstantsBefore1970() {
        let calendar = FixedOffsetCalendar(offsetSeconds: -5 * 3600)
        let instant = Timestamp(secondsSince1970: -1)
        XCTAssertEqual(calendar.civil(at: instant).minuteDescription, "1969-12-31 18:59")
        XCTAssertEqual(calendar.instant(of: calendar.civil(at: instant)), instant)
    }

    func testTheSystemCalendarAgreesWithAFixedOffsetInAZoneWithoutDaylightSaving() {
        withTimeZone("Asia/Seoul") {
            let system = SystemLocalCalendar()
            for step in 0..<500 {
                let instant = Timestamp(secondsSince1970: sundayAfternoonUTC + Double(step) * 7919)
                XCTAssertEqual(system.civil(at: instant), seoul.civil(at: instant))
                XCTAssertEqual(system.instant(of: seoul.civil(at: instant)), instant)
            }
            XCTAssertEqual(system.endOfDay(CivilDate(year: 2026, month: 11, day: 29)).rfc3339, "2026-11-29T14:59:59Z")
            XCTAssertEqual(system.startOfDay(CivilDate(year: 2026, month: 11, day: 29)).rfc3339, "2026-11-28T15:00:00Z")
        }
    }

    func testTheSystemCalendarGivesMktimesInstantAcrossAYearOfDaylightSavingChanges() {
        // New York and London change at night, Lord Howe by half an hour,
        // Santiago at midnight (a day whose start is in the gap), Seoul never.
        for zone in ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Santiago", "Asia/Seoul"] {
            withTimeZone(zone) {
                let system = SystemLocalCalendar()
                let first = CivilDate(year: 2026, month: 1, day: 1)
                for day in 0..<365 {
                    for hour in 0..<24 {
                        for (minute, second) in [(0, 0), (30, 0), (59, 59)] {
                            let wall = CivilDateTime(date: first.adding(days: day), hour: hour, minute: minute, second: second)
                            guard system.instant(of: wall) == SystemLocalCalendar.instantByMktime(wall) else {
                                return XCTFail("\(zone), \(wall.minuteDescription):\(second): \(system.instant(of: wall).rfc3339)"
                                                   + " but mktime gives \(SystemLocalCalendar.instantByMktime(wall).rfc3339)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testTheSystemCalendarLeavesTimesNearAChangeOfOffsetToMktime() {
        withTimeZone("America/New_York") {
            // Clocks went forward on 2026-03-08 at 02:00.
            XCTAssertNil(SystemLocalCalendar.instantAwayFromTransitions(
                CivilDateTime(date: CivilDate(year: 2026, month: 3, day: 8), hour: 2, minute: 30)))
            XCTAssertNil(SystemLocalCalendar.instantAwayFromTransitions(
                CivilDateTime(date: CivilDate(year: 2026, month: 3, day: 7), hour: 12)))
            XCTAssertEqual(SystemLocalCalendar.instantAwayFromTransitions(
                CivilDateTime(date: CivilDate(year: 2026, month: 7, day: 1), hour: 12))?.rfc3339, "2026-07-01T16:00:00Z")
        }
    }
}
