import MemoCore
@testable import Notes
import XCTest

final class RepeatRuleTests: XCTestCase {
    private func date(_ text: String) -> CivilDate {
        let parts = text.split(separator: "-").map { Int($0)! }
        return CivilDate(year: parts[0], month: parts[1], day: parts[2])
    }

    func testNamedRulesAndTheirKoreanWords() throws {
        XCTAssertEqual(try RepeatRule(parsing: "daily"), RepeatRule(every: 1, unit: .day))
        XCTAssertEqual(try RepeatRule(parsing: "Weekly"), RepeatRule(every: 1, unit: .week))
        XCTAssertEqual(try RepeatRule(parsing: "monthly"), RepeatRule(every: 1, unit: .month))
        XCTAssertEqual(try RepeatRule(parsing: "yearly"), RepeatRule(every: 1, unit: .year))
        XCTAssertEqual(try RepeatRule(parsing: "weekdays"), RepeatRule(every: 1, unit: .weekday))
        XCTAssertEqual(try RepeatRule(parsing: "매주"), RepeatRule(every: 1, unit: .week))
        XCTAssertEqual(try RepeatRule(parsing: "평일"), RepeatRule(every: 1, unit: .weekday))
        XCTAssertEqual(try RepeatRule(parsing: "3일마다"), RepeatRule(every: 3, unit: .day))
        XCTAssertEqual(try RepeatRule(parsing: "6개월마다"), RepeatRule(every: 6, unit: .month))
    }

    func testEveryNUnitsInWordsAndShortForms() throws {
        XCTAssertEqual(try RepeatRule(parsing: "every 2 weeks"), RepeatRule(every: 2, unit: .week))
        XCTAssertEqual(try RepeatRule(parsing: " every  3 days "), RepeatRule(every: 3, unit: .day))
        XCTAssertEqual(try RepeatRule(parsing: "every week"), RepeatRule(every: 1, unit: .week))
        XCTAssertEqual(try RepeatRule(parsing: "every weekday"), RepeatRule(every: 1, unit: .weekday))
        XCTAssertEqual(try RepeatRule(parsing: "2w"), RepeatRule(every: 2, unit: .week))
        XCTAssertEqual(try RepeatRule(parsing: "10d"), RepeatRule(every: 10, unit: .day))
        XCTAssertEqual(try RepeatRule(parsing: "1y"), RepeatRule(every: 1, unit: .year))
        XCTAssertEqual(try RepeatRule(parsing: "999d"), RepeatRule(every: 999, unit: .day))
    }

    func testUnknownOrOutOfRangeRulesAreUsageErrorsNamingTheForms() {
        for text in ["", "sometimes", "0w", "1000d", "every 0 days", "every -2 weeks", "every 2 weekdays", "2x",
                     "every 2", "w", "+2w", "٣d", "every 2 weeks please"] {
            XCTAssertThrowsError(try RepeatRule(parsing: text), text) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, text)
                XCTAssertTrue((error as? MemoError)?.message.en.contains("weekly") ?? false, text)
            }
        }
    }

    func testDaysWeeksAndWeekdaysStepOnTheCalendar() {
        XCTAssertEqual(RepeatRule(every: 3, unit: .day).nextDate(after: date("2026-12-30")), date("2027-01-02"))
        XCTAssertEqual(RepeatRule(every: 2, unit: .week).nextDate(after: date("2026-12-25")), date("2027-01-08"))
        // Friday to Monday, Saturday to Monday, Monday to Tuesday.
        let weekdays = RepeatRule(every: 1, unit: .weekday)
        XCTAssertEqual(weekdays.nextDate(after: date("2026-12-04")), date("2026-12-07"))
        XCTAssertEqual(weekdays.nextDate(after: date("2026-12-05")), date("2026-12-07"))
        XCTAssertEqual(weekdays.nextDate(after: date("2026-12-07")), date("2026-12-08"))
    }

    func testMonthEndsClampAndTheAnchorDayComesBack() {
        let monthly = RepeatRule(every: 1, unit: .month).anchored(at: date("2027-01-31"))
        XCTAssertEqual(monthly.anchorDay, 31)
        let february = monthly.nextDate(after: date("2027-01-31"))
        XCTAssertEqual(february, date("2027-02-28"))
        XCTAssertEqual(monthly.nextDate(after: february), date("2027-03-31"))
        XCTAssertEqual(monthly.nextDate(after: date("2027-03-31")), date("2027-04-30"))
        // A leap year's February has 29 days.
        XCTAssertEqual(monthly.nextDate(after: date("2028-01-31")), date("2028-02-29"))
        // December rolls into the next year.
        XCTAssertEqual(monthly.nextDate(after: date("2027-12-31")), date("2028-01-31"))
        let yearly = RepeatRule(every: 1, unit: .year).anchored(at: date("2028-02-29"))
        XCTAssertEqual(yearly.nextDate(after: date("2028-02-29")), date("2029-02-28"))
        XCTAssertEqual(yearly.nextDate(after: date("2031-02-28")), date("2032-02-29"))
        XCTAssertNil(RepeatRule(every: 1, unit: .week).anchored(at: date("2027-01-31")).anchorDay)
    }

    func testTheTextOfARuleReadsBackAsTheSameRule() throws {
        for rule in [RepeatRule(every: 1, unit: .day), RepeatRule(every: 2, unit: .week), RepeatRule(every: 1, unit: .month),
                     RepeatRule(every: 5, unit: .year), RepeatRule(every: 1, unit: .weekday)] {
            XCTAssertEqual(try RepeatRule(parsing: rule.text.en), rule, rule.text.en)
            XCTAssertEqual(try RepeatRule(parsing: rule.text.ko), rule, rule.text.ko)
        }
        XCTAssertEqual(RepeatRule(every: 2, unit: .week).text.en, "every 2 weeks")
        XCTAssertEqual(RepeatRule(every: 1, unit: .month).text.ko, "매월")
    }

    func testTaskwarriorAndTodoTxtForms() {
        XCTAssertEqual(RepeatRule(taskwarrior: "weekly"), RepeatRule(every: 1, unit: .week))
        XCTAssertEqual(RepeatRule(taskwarrior: "biweekly"), RepeatRule(every: 2, unit: .week))
        XCTAssertEqual(RepeatRule(taskwarrior: "quarterly"), RepeatRule(every: 3, unit: .month))
        XCTAssertEqual(RepeatRule(taskwarrior: "3wks"), RepeatRule(every: 3, unit: .week))
        XCTAssertEqual(RepeatRule(taskwarrior: "2mo"), RepeatRule(every: 2, unit: .month))
        XCTAssertEqual(RepeatRule(taskwarrior: "P1Y"), RepeatRule(every: 1, unit: .year))
        XCTAssertNil(RepeatRule(taskwarrior: "PT5H"))
        XCTAssertNil(RepeatRule(taskwarrior: "every blue moon"))
        XCTAssertEqual(RepeatRule(todoTxt: "1w"), RepeatRule(every: 1, unit: .week, from: .done))
        XCTAssertEqual(RepeatRule(todoTxt: "+2m"), RepeatRule(every: 2, unit: .month, from: .due))
        XCTAssertEqual(RepeatRule(todoTxt: "1b"), RepeatRule(every: 1, unit: .weekday, from: .done))
        XCTAssertNil(RepeatRule(todoTxt: "2b"))
        XCTAssertNil(RepeatRule(todoTxt: "0d"))
        XCTAssertNil(RepeatRule(todoTxt: "+"))
    }
}
