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

    func testYesterdayAndTheEndsOfTheWeekMonthAndYear() throws {
        XCTAssertEqual(try date("yesterday"), "2026-11-28")
        XCTAssertEqual(try date("어제"), "2026-11-28")
        // Sunday is the last day of its week: eow said on a Sunday is today.
        XCTAssertEqual(try date("eow"), "2026-11-29")
        XCTAssertEqual(try date("EOM"), "2026-11-30")
        XCTAssertEqual(try date("eoy"), "2026-12-31")
        let wednesday = DueDateParser(now: Timestamp(secondsSince1970: sundayAfternoonUTC + 3 * 86_400), calendar: seoul)
        XCTAssertEqual(try wednesday.parse("eow").date(in: seoul).description, "2026-12-06")
    }

    func testCountsOfDaysWeeksAndMonthsInEveryForm() throws {
        for text in ["+3d", "in 3 days", "IN 3 DAYS", "3일 후", "3일 뒤", "in 3 day"] {
            XCTAssertEqual(try date(text), "2026-12-02", text)
        }
        for text in ["+2w", "in 2 weeks", "2주 후"] {
            XCTAssertEqual(try date(text), "2026-12-13", text)
        }
        for text in ["+1m", "in 1 month", "1개월 후", "1달 뒤"] {
            XCTAssertEqual(try date(text), "2026-12-29", text)
        }
        XCTAssertEqual(try date("+3m"), "2027-02-28", "November 29 plus three months: February has no 29th in 2027")
        XCTAssertEqual(try date("+15m"), "2028-02-29")
    }

    func testWeekdaysOfThisAndNextWeekInKorean() throws {
        // Sunday 2026-11-29 ends the week that began on Monday 2026-11-23.
        XCTAssertEqual(try date("다음 주 금요일"), "2026-12-04")
        XCTAssertEqual(try date("다음주 금요일"), "2026-12-04")
        XCTAssertEqual(try date("다음 주 월"), "2026-11-30")
        XCTAssertEqual(try date("이번 주 금요일"), "2026-11-27", "already past: overdue, as the user said")
        let monday = DueDateParser(now: Timestamp(secondsSince1970: sundayAfternoonUTC + 86_400), calendar: seoul)
        XCTAssertEqual(try monday.parse("다음 주 금요일").date(in: seoul).description, "2026-12-11")
        XCTAssertEqual(try monday.parse("이번 주 일요일").date(in: seoul).description, "2026-12-06")
    }

    func testNextAndThisWeekdayInEnglishAreTheKoreanWeeks() throws {
        // Sunday 2026-11-29: its week began on Monday 2026-11-23.
        XCTAssertEqual(try date("next friday"), "2026-12-04")
        XCTAssertEqual(try date("Next Mon"), "2026-11-30")
        XCTAssertEqual(try date("this friday"), "2026-11-27", "already past: overdue, as the user said")
        XCTAssertEqual(try date("next 금요일"), "2026-12-04")
        XCTAssertEqual(try parser.parse("next friday 9am").description(in: seoul), "2026-12-04 09:00")
    }

    func testAMonthAndADayInEitherOrderWithOrWithoutAYear() throws {
        let cases: [(String, String)] = [
            ("dec 25", "2026-12-25"), ("December 25", "2026-12-25"), ("25 dec", "2026-12-25"), ("25th December", "2026-12-25"),
            ("dec 25, 2027", "2027-12-25"), ("25 Dec 2027", "2027-12-25"), ("sept 1", "2027-09-01"), ("jan 1st", "2027-01-01"),
            ("nov 29", "2026-11-29"), ("nov 28", "2027-11-28"), ("feb 29", "2028-02-29"), ("may 3rd", "2027-05-03"),
            ("12월 25일", "2026-12-25"), ("12월25일", "2026-12-25"), ("2027년 12월 25일", "2027-12-25"),
            ("2027년12월25일", "2027-12-25"), ("1월 2일", "2027-01-02"),
        ]
        for (text, expected) in cases { XCTAssertEqual(try date(text), expected, text) }
        XCTAssertEqual(try parser.parse("dec 25 18:30").description(in: seoul), "2026-12-25 18:30")
        XCTAssertEqual(try parser.parse("12월 25일 오후 6시").description(in: seoul), "2026-12-25 18:00")
        for text in ["feb 30", "feb 29 2027", "13월 1일", "12월 32일", "dec 0", "jun 31"] {
            XCTAssertThrowsError(try parser.parse(text), text) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, text)
                XCTAssertTrue((error as? MemoError)?.message.en.contains("no such day") == true, "\(error)")
            }
        }
    }

    func testNoonIsTwelve() throws {
        XCTAssertEqual(try parser.parse("tomorrow noon").description(in: seoul), "2026-11-30 12:00")
        XCTAssertEqual(try parser.parse("내일 정오").description(in: seoul), "2026-11-30 12:00")
        XCTAssertEqual(try parser.parse("noon").description(in: seoul), "2026-11-30 12:00", "past today: tomorrow's")
    }

    func testATimeOfDayAfterAnyDay() throws {
        let cases: [(String, String)] = [
            ("tomorrow 9:00", "2026-11-30 09:00"), ("fri 18:30", "2026-12-04 18:30"), ("tomorrow at 9am", "2026-11-30 09:00"),
            ("2026-12-04T09:00", "2026-12-04 09:00"), ("2026-12-04t9:00", "2026-12-04 09:00"),
            ("mon 6:30pm", "2026-11-30 18:30"), ("mon 6:30 PM", "2026-11-30 18:30"), ("tomorrow 12am", "2026-11-30 00:00"),
            ("tomorrow 12pm", "2026-11-30 12:00"), ("+1w 7am", "2026-12-06 07:00"), ("in 3 days 14:00", "2026-12-02 14:00"),
            ("내일 오전 9시", "2026-11-30 09:00"), ("내일 오후 3시 30분", "2026-11-30 15:30"), ("모레 9시반", "2026-12-01 09:30"),
            ("다음 주 금요일 오후 6시", "2026-12-04 18:00"), ("3일 후 20시", "2026-12-02 20:00"), ("내일 오전 12시", "2026-11-30 00:00"),
            ("eom 23:30", "2026-11-30 23:30"), ("yesterday 10:00", "2026-11-28 10:00"),
        ]
        for (text, expected) in cases {
            let due = try parser.parse(text)
            XCTAssertTrue(due.hasTime, text)
            XCTAssertEqual(due.description(in: seoul), expected, text)
        }
        // Seoul is UTC+9 all year: 09:00 there is 00:00 UTC.
        XCTAssertEqual(try parser.parse("tomorrow 9am").instant.rfc3339, "2026-11-30T00:00:00Z")
    }

    func testATimeAloneIsItsNextOccurrence() throws {
        // Now is 22:00 Sunday in Seoul: 23:00 is still today, 9am is tomorrow.
        XCTAssertEqual(try parser.parse("23:00").description(in: seoul), "2026-11-29 23:00")
        XCTAssertEqual(try parser.parse("9am").description(in: seoul), "2026-11-30 09:00")
        XCTAssertEqual(try parser.parse("오후 10시").description(in: seoul), "2026-11-30 22:00", "22:00 is now, not after it")
        XCTAssertEqual(try parser.parse("at 10:30pm").description(in: seoul), "2026-11-29 22:30")
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

    func testAnythingElseIsAUsageErrorWithAShortMessage() {
        let bad = ["", "   ", "next week", "+3", "+d", "+3x", "+-3d", "+ 3d",
                   "+100000d", "+1201m", "3d", "2026-13-01", "2026-12-32", "2026-00-10", "2026-02-29", "2026-1-5",
                   "26-12-01", "2026/12/25", "2026-12-25 25:00", "2026-12-25 14:60", "2026-12-25 14",
                   "2026-12-25 14:30 extra", "2026-12-25T14", "2026-12-25T25:00", "월요일요일", "월화", "１２３", "+３d",
                   "2026-12-25 1430", "1899-12-31", "today'; DROP TABLE todos; --", "\0", "mon\0day",
                   "13pm", "0am", "9:75am", "tomorrow 9", "오후 13시", "25시", "9시 60분", "내일 오전", "in days",
                   "in 3", "in 3 fortnights", "3일", "후", "다음 주", "지난 주 금요일", "eod", "at",
                   "tomorrow at", "오전 9시 내일", "9am 9am", "next", "next week", "next month",
                   "this week", "dec", "25 december 20270", "dec 25 27", "december twenty", "dec 123", "12월", "25일",
                   "12월 25", "2027년 12월", "27년 12월 25일", "noon noon", "next 2026-12-01"]
        for text in bad {
            do {
                let due = try parser.parse(text)
                XCTFail("'\(text)' was accepted as \(due)")
            } catch let error as MemoError {
                XCTAssertEqual(error.kind, .usage, text)
                // One short line: a refusal no longer lists every form.
                XCTAssertLessThan(error.message.en.count, 140, error.message.en)
                XCTAssertLessThan(error.message.ko.count, 140, error.message.ko)
                XCTAssertFalse(error.message.ko.isEmpty)
            } catch {
                XCTFail("unexpected \(error)")
            }
        }
    }

    func testTheErrorQuotesTheInputAndTheHelpListsEveryForm() {
        do {
            _ = try parser.parse("someday")
            XCTFail("accepted")
        } catch let error as MemoError {
            XCTAssertTrue(error.message.en.contains("'someday'"), error.message.en)
            XCTAssertTrue(error.message.ko.contains("'someday'"), error.message.ko)
            XCTAssertTrue(error.message.ko.contains("모레 저녁 7시"), error.message.ko)
        } catch {
            XCTFail("unexpected \(error)")
        }
        for form in ["today", "tomorrow", "yesterday", "monday", "eow", "eom", "eoy", "+3d", "+2w", "+1m",
                     "in 3 days", "9am", "YYYY-MM-DD HH:MM", "YYYY-MM-DDTHH:MM", "RFC 3339", "오늘", "내일", "모레", "3일 후",
                     "다음 주 금요일", "내일 오전 9시", "tonight", "this evening", "end of month", "오늘 밤", "모레 저녁 7시"] {
            XCTAssertTrue(DueDateParser.acceptedForms.en.contains(form), form)
        }
        for form in ["월말", "저녁 7시", "밤 9시", "아침", "오늘 밤", "오늘 저녁", "다음 달 말"] {
            XCTAssertTrue(DueDateParser.acceptedForms.ko.contains(form), form)
        }
    }

    func testADateThatDoesNotExistSaysSo() {
        do {
            _ = try parser.parse("2026-02-30")
            XCTFail("accepted")
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .usage)
            XCTAssertEqual(error.message.en, "there is no date 2026-02-30")
            XCTAssertEqual(error.message.ko, "2026-02-30은(는) 없는 날짜입니다")
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

extension DueDateParserTests {
    /// RFC 3339 with Z or an offset is a moment, whatever the time zone: a
    /// client sends back the `due_at` it read. The last second of a local
    /// day is a date-only due again (what a date-only due's `due_at` is).
    func testRFC3339IsAnExactMoment() throws {
        let zulu = try parser.parse("2026-12-25T05:30:00Z")
        XCTAssertEqual(zulu.instant.rfc3339, "2026-12-25T05:30:00Z")
        XCTAssertTrue(zulu.hasTime)
        XCTAssertEqual(try parser.parse("2026-12-25T14:30:00+09:00").instant.rfc3339, "2026-12-25T05:30:00Z")
        XCTAssertEqual(try parser.parse("2026-12-25t05:30:00.250z").instant.secondsSince1970,
                       try parser.parse("2026-12-25T05:30:00Z").instant.secondsSince1970 + 0.25)
        let endOfDay = try parser.parse("2026-11-29T14:59:59.000Z")
        XCTAssertFalse(endOfDay.hasTime)
        XCTAssertEqual(endOfDay.description(in: seoul), "2026-11-29")
        XCTAssertEqual(try parser.reminder("2026-11-29T14:59:59Z").rfc3339, "2026-11-29T14:59:59Z",
                       "a reminder is the moment itself, never the day's morning")
        for text in ["2026-12-25T25:00:00Z", "2026-02-30T10:00:00Z"] {
            XCTAssertThrowsError(try parser.parse(text), text)
        }
    }
}
