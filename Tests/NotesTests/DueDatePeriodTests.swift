import MemoCore
@testable import Notes
import XCTest

/// The parts of a day (`tonight`, `저녁 7시`), the ends of months and years in
/// words (`end of month`, `월말`), the short refusal and the warnings, each
/// at a fixed moment in Seoul (UTC+9 all year).
final class DueDatePeriodTests: XCTestCase {
    /// A parser whose now is `date` at `hour`:`minute` in Seoul.
    private func parser(_ date: String, _ hour: Int, _ minute: Int = 0) -> DueDateParser {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let day = CivilDate(year: parts[0], month: parts[1], day: parts[2])
        return DueDateParser(now: seoul.instant(of: CivilDateTime(date: day, hour: hour, minute: minute)), calendar: seoul)
    }

    /// `text` as `2026-11-29 21:00` (timed) or `2026-11-29` (date-only).
    private func shown(_ parser: DueDateParser, _ text: String, file: StaticString = #filePath,
                       line: UInt = #line) throws -> String {
        try parser.parse(text).description(in: seoul)
    }

    private func assertRefused(_ parser: DueDateParser, _ texts: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in texts {
            do {
                let due = try parser.parse(text)
                XCTFail("'\(text)' was accepted as \(due.description(in: seoul))", file: file, line: line)
            } catch let error as MemoError {
                XCTAssertEqual(error.kind, .usage, text, file: file, line: line)
                XCTAssertFalse(error.message.en.isEmpty || error.message.ko.isEmpty, text, file: file, line: line)
            } catch {
                XCTFail("unexpected \(error)", file: file, line: line)
            }
        }
    }

    // MARK: - Parts of the day

    func testTonightAndThisEveningAreTodayAtNineAndSixInTheMorning() throws {
        // Sunday 2026-11-29, 10:00 in Seoul.
        let morning = parser("2026-11-29", 10)
        for text in ["tonight", "Tonight", "오늘 밤", "오늘밤", "this night", "밤"] {
            XCTAssertEqual(try shown(morning, text), "2026-11-29 21:00", text)
        }
        for text in ["this evening", "오늘 저녁", "저녁", "evening", "today evening"] {
            XCTAssertEqual(try shown(morning, text), "2026-11-29 18:00", text)
        }
        XCTAssertEqual(try shown(morning, "this morning"), "2026-11-29 08:00", "said at 10:00: gone, as the user said")
        XCTAssertEqual(try shown(morning, "오늘 아침"), "2026-11-29 08:00")
        XCTAssertEqual(try shown(morning, "아침"), "2026-11-30 08:00", "a morning alone is the next one")
        XCTAssertEqual(try shown(morning, "morning"), "2026-11-30 08:00")
    }

    func testAnEveningOrNightBegunIsTheRestOfToday() throws {
        // Sunday 2026-11-29, 22:00 in Seoul: past 18:00 and 21:00.
        let late = parser("2026-11-29", 22)
        for text in ["tonight", "오늘 밤", "this evening", "오늘 저녁", "저녁", "밤", "evening"] {
            let due = try late.parse(text)
            XCTAssertFalse(due.hasTime, text)
            XCTAssertEqual(due.description(in: seoul), "2026-11-29", text)
        }
        // With a clock, a time gone is what the user said (overdue).
        XCTAssertEqual(try shown(late, "오늘 밤 9시"), "2026-11-29 21:00")
        XCTAssertEqual(try shown(late, "tonight 11pm"), "2026-11-29 23:00")
        // The boundary: at 20:59 tonight is still ahead; at 21:00 it has begun.
        XCTAssertEqual(try shown(parser("2026-11-29", 20, 59), "tonight"), "2026-11-29 21:00")
        XCTAssertEqual(try shown(parser("2026-11-29", 21), "tonight"), "2026-11-29")
        XCTAssertEqual(try shown(parser("2026-11-29", 17, 59), "오늘 저녁"), "2026-11-29 18:00")
        XCTAssertEqual(try shown(parser("2026-11-29", 18), "오늘 저녁"), "2026-11-29")
        // After midnight, tonight is the coming one.
        XCTAssertEqual(try shown(parser("2026-11-30", 0, 30), "tonight"), "2026-11-30 21:00")
    }

    func testOtherDaysTakeThePartsOfTheDay() throws {
        let late = parser("2026-11-29", 22)
        let cases: [(String, String)] = [
            ("내일 저녁", "2026-11-30 18:00"), ("내일 밤", "2026-11-30 21:00"), ("내일 아침", "2026-11-30 08:00"),
            ("모레 저녁", "2026-12-01 18:00"), ("내일저녁", "2026-11-30 18:00"), ("금요일저녁", "2026-12-04 18:00"), ("tomorrow evening", "2026-11-30 18:00"), ("tomorrow night", "2026-11-30 21:00"),
            ("tomorrow morning", "2026-11-30 08:00"), ("fri evening", "2026-12-04 18:00"), ("금요일 밤", "2026-12-04 21:00"),
            ("다음 주 금요일 저녁", "2026-12-04 18:00"), ("12월 25일 저녁", "2026-12-25 18:00"), ("dec 25 night", "2026-12-25 21:00"),
            ("2026-12-24 evening", "2026-12-24 18:00"), ("in 3 days morning", "2026-12-02 08:00"), ("3일 후 저녁", "2026-12-02 18:00"),
            ("yesterday evening", "2026-11-28 18:00"),
        ]
        for (text, expected) in cases { XCTAssertEqual(try shown(late, text), expected, text) }
    }

    func testAPartOfTheDayBeforeAClockPlacesIt() throws {
        let late = parser("2026-11-29", 22)
        let cases: [(String, String)] = [
            ("모레 저녁 7시", "2026-12-01 19:00"), ("모레 저녁7시", "2026-12-01 19:00"), ("내일저녁 7시", "2026-11-30 19:00"), ("내일 저녁 7시", "2026-11-30 19:00"), ("내일 저녁 7시반", "2026-11-30 19:30"),
            ("내일 밤 9시 30분", "2026-11-30 21:30"), ("내일 아침 8시", "2026-11-30 08:00"), ("내일 새벽 2시", "2026-11-30 02:00"),
            ("내일 저녁 19시", "2026-11-30 19:00"), ("내일 밤 11시", "2026-11-30 23:00"), ("내일 밤 6시", "2026-11-30 18:00"),
            ("tomorrow evening at 7", "2026-11-30 19:00"), ("tomorrow evening 7pm", "2026-11-30 19:00"),
            ("tomorrow night 9:30", "2026-11-30 21:30"), ("tomorrow morning at 7:15", "2026-11-30 07:15"),
            ("fri evening 6:45 pm", "2026-12-04 18:45"), ("tomorrow night 22:00", "2026-11-30 22:00"),
            // A clock alone is its next occurrence: 19:00 is past at 22:00.
            ("저녁 7시", "2026-11-30 19:00"), ("밤 9시", "2026-11-30 21:00"), ("아침 8시", "2026-11-30 08:00"),
            ("새벽 5시", "2026-11-30 05:00"), ("밤 11시", "2026-11-29 23:00"), ("tonight at 11", "2026-11-29 23:00"),
            // A bare hour is a clock only after a part of the day.
            ("저녁 7", "2026-11-30 19:00"), ("evening 7", "2026-11-30 19:00"),
        ]
        for (text, expected) in cases {
            let due = try late.parse(text)
            XCTAssertTrue(due.hasTime, text)
            XCTAssertEqual(due.description(in: seoul), expected, text)
        }
        let morning = parser("2026-11-29", 10)
        XCTAssertEqual(try shown(morning, "tonight at 9"), "2026-11-29 21:00")
        XCTAssertEqual(try shown(morning, "tonight 9:30"), "2026-11-29 21:30")
        XCTAssertEqual(try shown(morning, "오늘 저녁 7시"), "2026-11-29 19:00")
        XCTAssertEqual(try shown(morning, "저녁 7시"), "2026-11-29 19:00")
    }

    func testAPartOfTheDayRefusesAClockOutsideIt() {
        let late = parser("2026-11-29", 22)
        assertRefused(late, ["저녁 3시", "저녁 12시", "밤 12시", "밤 1시", "밤 5시", "아침 12시", "아침 3시", "아침 13시",
                             "새벽 9시", "새벽", "내일 새벽", "evening 7am", "tonight 9am", "tomorrow morning 7pm",
                             "tonight 25:00", "내일 저녁 7시 60분", "저녁 25시", "morning 13", "tonight at 0"])
        XCTAssertThrowsError(try late.parse("저녁 3시")) { error in
            XCTAssertEqual((error as? MemoError)?.message.ko, "저녁 3시은(는) 없는 시각입니다. 18:30, 오후 6시 30분, 저녁 7시처럼 쓰세요")
        }
        XCTAssertThrowsError(try late.parse("tonight 9am")) { error in
            XCTAssertEqual((error as? MemoError)?.message.en,
                           "there is no time night 9am ('tonight 9am'); try 18:30, 6:30pm or evening 7")
        }
        for text in ["저녁 3시", "tonight 9am"] {
            XCTAssertThrowsError(try late.parse(text)) { error in
                XCTAssertTrue((error as? MemoError)?.message.en.contains("no time") == true, "\(error)")
            }
        }
    }

    func testWordsAroundThePartsOfTheDayStayRefused() {
        let late = parser("2026-11-29", 22)
        assertRefused(late, ["tonight tonight", "this", "evening evening", "오늘 밤 밤", "저녁 저녁", "7 evening",
                             "at evening", "tomorrow 9", "tomorrow at 9", "9", "at 9", "tonight at", "night at 9 pm extra",
                             "afternoon", "오후", "내일 오전", "내일 오후", "점심", "tonite", "eve", "next evening",
                             "this tonight", "evening tomorrow", "저녁 내일", "밤9시 extra", "today tonight", "오늘밤밤", "다음밤", "금밤", "밤시", "오늘저녁저녁"])
    }

    // MARK: - Ends of periods

    func testTheEndsOfTheMonthInWords() throws {
        let sunday = parser("2026-11-29", 22)
        for text in ["end of month", "End of the Month", "end  of  month", "eom", "월말", "이번 달 말", "이번달 말",
                     "이번달말", "이달 말", "말일", "이번 달 말일"] {
            let due = try sunday.parse(text)
            XCTAssertFalse(due.hasTime, text)
            XCTAssertEqual(due.description(in: seoul), "2026-11-30", text)
        }
        XCTAssertEqual(try shown(sunday, "end of month 18:00"), "2026-11-30 18:00")
        XCTAssertEqual(try shown(sunday, "월말 오후 6시"), "2026-11-30 18:00")
        XCTAssertEqual(try shown(sunday, "월말 저녁"), "2026-11-30 18:00")
        // The last day itself: today.
        XCTAssertEqual(try shown(parser("2026-12-31", 9), "end of month"), "2026-12-31")
        // February, in a leap year and in another.
        XCTAssertEqual(try shown(parser("2028-02-10", 9), "end of month"), "2028-02-29")
        XCTAssertEqual(try shown(parser("2028-02-29", 9), "월말"), "2028-02-29")
        XCTAssertEqual(try shown(parser("2027-02-10", 9), "이번 달 말"), "2027-02-28")
        XCTAssertEqual(try shown(parser("2100-02-01", 9), "eom"), "2100-02-28", "1900 and 2100 are not leap years")
    }

    func testTheEndOfNextMonthTheWeekAndTheYear() throws {
        XCTAssertEqual(try shown(parser("2027-01-31", 9), "end of next month"), "2027-02-28")
        XCTAssertEqual(try shown(parser("2028-01-31", 9), "다음 달 말"), "2028-02-29")
        XCTAssertEqual(try shown(parser("2026-12-15", 9), "다음달 말일"), "2027-01-31", "across the year")
        XCTAssertEqual(try shown(parser("2026-11-29", 9), "end of week"), "2026-11-29", "a Sunday ends its week")
        XCTAssertEqual(try shown(parser("2026-12-02", 9), "end of the week"), "2026-12-06")
        for text in ["end of year", "end of the year", "연말", "올해 말", "eoy"] {
            XCTAssertEqual(try shown(parser("2028-02-29", 9), text), "2028-12-31", text)
        }
    }

    func testEndsThatAreNotPhrasesStayRefused() {
        assertRefused(parser("2026-11-29", 22), [
            "end", "end of", "end of the", "end of day", "end of next week", "end of month month", "end month",
            "the end of month", "말", "이번 달", "다음 달", "이번 주 말", "주말", "다음 주 말", "월말월말", "end of 월",
            "end of next year", "end-of-month",
        ])
    }

    // MARK: - Refusals and warnings

    func testARefusalIsShortAndGivesAFewExamples() {
        let sunday = parser("2026-11-29", 22)
        XCTAssertThrowsError(try sunday.parse("someday")) { error in
            let message = (error as? MemoError)?.message
            XCTAssertEqual(message?.en, "unrecognized date 'someday'; try tomorrow 18:00, tonight, dec 25")
            XCTAssertEqual(message?.ko, "날짜 'someday'을(를) 알 수 없습니다. 예: 내일 18:00, 모레 저녁 7시, 12월 25일")
        }
    }

    func testARefusalShowsControlCharactersAndCutsLongInput() {
        let sunday = parser("2026-11-29", 22)
        for text in ["mon\u{1B}[31mday", "a\nb", "x\u{202E}y", "\u{7}", "z\u{2028}w"] {
            XCTAssertThrowsError(try sunday.parse(text)) { error in
                for message in [(error as? MemoError)?.message.en ?? "", (error as? MemoError)?.message.ko ?? ""] {
                    XCTAssertFalse(message.unicodeScalars.contains { $0.properties.generalCategory == .control
                        || $0.properties.generalCategory == .format || $0.value == 0x2028 }, message)
                    XCTAssertTrue(message.contains("\\u{"), message)
                }
            }
        }
        let long = String(repeating: "가", count: 5000)
        XCTAssertThrowsError(try sunday.parse(long)) { error in
            XCTAssertLessThan((error as? MemoError)?.message.en.count ?? 0, 200)
            XCTAssertTrue((error as? MemoError)?.message.ko.contains("…") == true)
        }
        XCTAssertThrowsError(try sunday.parse("2026-12-25 25:00\u{1B}")) { error in
            XCTAssertFalse((error as? MemoError)?.message.en.contains("\u{1B}") ?? true)
        }
    }

    func testWarningsForTheFarPastAndTheFarFuture() throws {
        // Sunday 2026-11-29, 22:00 in Seoul.
        let sunday = parser("2026-11-29", 22)
        func warning(_ text: String) throws -> Localized? { sunday.warning(for: try sunday.parse(text)) }
        for text in ["today", "yesterday", "tonight", "2026-11-28 22:00", "tomorrow", "2031-11-29", "+60m"] {
            XCTAssertNil(try warning(text), text)
        }
        let past = try XCTUnwrap(try warning("2026-11-28 21:59"))
        XCTAssertEqual(past.en, "2026-11-28 21:59 is in the past")
        XCTAssertEqual(past.ko, "2026-11-28 21:59은(는) 지난 날짜입니다")
        XCTAssertNotNil(try warning("2020-01-01"))
        XCTAssertNotNil(try warning("어제 아침"), "yesterday 08:00 is 38 hours ago")
        let future = try XCTUnwrap(try warning("2031-11-30"))
        XCTAssertEqual(future.en, "2031-11-30 is more than 5 years away")
        XCTAssertEqual(future.ko, "2031-11-30은(는) 5년도 더 뒤입니다")
        XCTAssertNotNil(try warning("2062-12-25 09:00"))
        // From a leap day, five years on is February 28.
        let leap = parser("2028-02-29", 9)
        XCTAssertNil(leap.warning(for: try leap.parse("2033-02-28")))
        XCTAssertNotNil(leap.warning(for: try leap.parse("2033-03-01")))
    }
}
