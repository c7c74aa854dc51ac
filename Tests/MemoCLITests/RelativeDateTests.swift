@testable import MemoCLI
import MemoCore
import Notes
import XCTest

/// Dates in lists, as pure functions of the date, a fixed "now", the
/// calendar and the language.
final class RelativeDateTests: XCTestCase {
    /// Seoul, UTC+9, no daylight-saving time.
    private let seoul = FixedOffsetCalendar(offsetSeconds: 9 * 3600)
    /// Wednesday 2026-12-02 14:30 in Seoul.
    private lazy var now = seoul.instant(of: CivilDateTime(date: CivilDate(year: 2026, month: 12, day: 2), hour: 14,
                                                            minute: 30))

    private func dates(_ language: Language = .en) -> RelativeDate {
        RelativeDate(now: now, calendar: seoul, language: language)
    }

    private func due(_ day: Int, month: Int = 12, year: Int = 2026, at time: (Int, Int)? = nil) -> Due {
        let date = CivilDate(year: year, month: month, day: day)
        guard let (hour, minute) = time else { return Due.endOf(date, in: seoul) }
        return Due(instant: seoul.instant(of: CivilDateTime(date: date, hour: hour, minute: minute)), hasTime: true)
    }

    func testDuesNearTodayAreNamed() {
        XCTAssertEqual(dates().due(due(2, at: (18, 0))), "today 18:00")
        XCTAssertEqual(dates().due(due(2)), "today")
        XCTAssertEqual(dates().due(due(3)), "tomorrow")
        XCTAssertEqual(dates().due(due(3, at: (9, 5))), "tomorrow 09:05")
        XCTAssertEqual(dates().due(due(1, at: (8, 0))), "yesterday 08:00")
        XCTAssertEqual(dates(.ko).due(due(2, at: (18, 0))), "오늘 18:00")
        XCTAssertEqual(dates(.ko).due(due(3)), "내일")
        XCTAssertEqual(dates(.ko).due(due(1)), "어제")
    }

    func testTheComingDaysShowTheirWeekdayAndPastOnesHowLongAgo() {
        XCTAssertEqual(dates().due(due(4)), "Fri 4 Dec")
        XCTAssertEqual(dates().due(due(4, at: (7, 30))), "Fri 4 Dec 07:30")
        XCTAssertEqual(dates(.ko).due(due(4)), "12월 4일 (금)")
        XCTAssertEqual(dates().due(due(28, month: 11)), "4 days ago")
        XCTAssertEqual(dates(.ko).due(due(28, month: 11)), "4일 전")
        XCTAssertEqual(dates().due(due(25)), "Fri 25 Dec")
    }

    func testAnotherYearIsShownInFull() {
        XCTAssertEqual(dates().due(due(5, month: 1, year: 2027)), "2027-01-05")
        XCTAssertEqual(dates(.ko).due(due(5, month: 1, year: 2027, at: (9, 0))), "2027-01-05")
        XCTAssertEqual(dates().due(due(1, month: 3, year: 2025)), "2025-03-01")
    }

    func testMomentsInThePastSayHowLongAgo() {
        XCTAssertEqual(dates().past(now.adding(seconds: -20)), "just now")
        XCTAssertEqual(dates().past(now.adding(seconds: -5 * 60)), "5 min ago")
        XCTAssertEqual(dates().past(now.adding(seconds: -3600)), "1 hour ago")
        XCTAssertEqual(dates().past(now.adding(seconds: -2 * 3600 - 59)), "2 hours ago")
        XCTAssertEqual(dates(.ko).past(now.adding(seconds: -2 * 3600)), "2시간 전")
        XCTAssertEqual(dates(.ko).past(now.adding(seconds: -30)), "방금")
        // 16 hours ago is yesterday in Seoul: the day is named, with the time.
        XCTAssertEqual(dates().past(now.adding(seconds: -16 * 3600)), "yesterday 22:30")
        XCTAssertEqual(dates(.ko).past(now.adding(seconds: -16 * 3600)), "어제 22:30")
        XCTAssertEqual(dates().past(now.adding(seconds: -3 * 86_400)), "3 days ago")
        XCTAssertEqual(dates().past(now.adding(seconds: -8 * 86_400)), "Tue 24 Nov")
        XCTAssertEqual(dates(.ko).past(now.adding(seconds: -8 * 86_400)), "11월 24일 (화)")
        XCTAssertEqual(dates().past(now.adding(seconds: -400 * 86_400)), "2025-10-28")
    }

    func testAMomentAheadOfNowSaysHowFarAhead() {
        XCTAssertEqual(dates().past(now.adding(seconds: 3 * 86_400)), "in 3 days")
        XCTAssertEqual(dates(.ko).past(now.adding(seconds: 3 * 86_400)), "3일 후")
        XCTAssertEqual(dates().past(now.adding(seconds: 2 * 3600)), "in 2 hours")
        XCTAssertEqual(dates().past(now.adding(seconds: 10)), "just now")
    }

    func testTheDayFollowsTheCalendarNotUTC() {
        // 23:00 UTC on 2 December is 08:00 on 3 December in Seoul: tomorrow there, today in UTC.
        let instant = Timestamp(secondsSince1970: now.secondsSince1970 + 17.5 * 3600)
        XCTAssertEqual(dates().due(Due(instant: instant, hasTime: true)), "tomorrow 08:00")
        let utc = RelativeDate(now: now, calendar: FixedOffsetCalendar(offsetSeconds: 0), language: .en)
        XCTAssertEqual(utc.due(Due(instant: instant, hasTime: true)), "today 23:00")
    }

    func testNoTextIsWiderThanTheColumnMadeForIt() {
        // Every hour for a year and a half around now, in both languages:
        // the table sizes the date column from maximumWidth before any row.
        for language in Language.allCases {
            let dates = dates(language)
            let widest = RelativeDate.maximumWidth(in: language)
            for hour in stride(from: -24 * 270, through: 24 * 270, by: 1) {
                let instant = now.adding(seconds: Double(hour) * 3600 + 1800)
                for text in [dates.due(Due(instant: instant, hasTime: true)), dates.due(Due(instant: instant, hasTime: false)),
                             dates.past(instant)] {
                    XCTAssertLessThanOrEqual(TerminalText.displayWidth(text), widest, "\(text) in \(language)")
                }
            }
        }
    }

    func testADamagedInstantStillShowsADate() {
        let far = Timestamp(secondsSince1970: .infinity)
        XCTAssertFalse(dates().past(far).isEmpty)
        XCTAssertFalse(dates().due(Due(instant: far, hasTime: true)).isEmpty)
    }
}
