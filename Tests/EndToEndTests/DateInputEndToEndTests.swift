import Foundation
import TestSupport
import XCTest

/// The richer WHEN of `--due` through the built binary. The binary reads the
/// real clock, so relative forms are checked by what holds on any day (a time
/// of day kept, the last day of a month or year); absolute ones exactly.
final class DateInputEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func due(_ when: String, file: StaticString = #filePath, line: UInt = #line) -> (local: String, hasTime: Bool)? {
        let result = app.run("todo", "add", "x", "--due", when, "--json")
        XCTAssertEqual(result.status, 0, "\(when): \(result.stderr)", file: file, line: line)
        let object = result.object(file: file, line: line)
        guard let local = object["due_local"] as? String, let hasTime = object["due_has_time"] as? Bool else { return nil }
        return (local, hasTime)
    }

    func testAbsoluteDatesWithATimeOfDayInEveryForm() {
        let cases = ["2099-12-04T09:00", "2099-12-04 9:00", "2099-12-04 9am", "2099-12-04 at 9 AM", "2099-12-04 오전 9시"]
        for when in cases {
            let value = due(when)
            XCTAssertEqual(value?.local, "2099-12-04 09:00", when)
            XCTAssertEqual(value?.hasTime, true, when)
        }
        XCTAssertEqual(due("2099-12-04 오후 6시 30분")?.local, "2099-12-04 18:30")
        XCTAssertEqual(due("2099-12-04 6:30pm")?.local, "2099-12-04 18:30")
    }

    func testRelativeDaysKeepTheirTimeAndEndsOfPeriodsFallOnLastDays() throws {
        for when in ["tomorrow 9:00", "fri 9am", "내일 오전 9시", "다음 주 금요일 9시", "in 3 days 9:00", "3일 후 오전 9시", "+1m 9:00"] {
            let value = due(when)
            XCTAssertEqual(value?.hasTime, true, when)
            XCTAssertTrue(value?.local.hasSuffix(" 09:00") ?? false, "\(when): \(String(describing: value))")
        }
        XCTAssertTrue(due("eoy")?.local.hasSuffix("-12-31") ?? false)
        let endOfMonth = try XCTUnwrap(due("eom")?.local)
        XCTAssertGreaterThanOrEqual(Int(endOfMonth.suffix(2)) ?? 0, 28, endOfMonth)
        for when in ["yesterday", "eow", "+2w", "in 1 month", "모레", "어제"] {
            XCTAssertEqual(due(when)?.hasTime, false, when)
        }
    }

    func testUnknownInputIsAShortUsageErrorPointingToTheHelp() {
        for when in ["someday", "in 3 fortnights", "tomorrow 25:00", "13pm", "내일 오후 13시", "지난 주 금요일", "+99999m"] {
            let result = app.run("todo", "add", "x", "--due", when)
            XCTAssertEqual(result.status, 64, "\(when): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("memoapp todo add --help"), result.stderr)
            XCTAssertLessThan(result.stderr.count, 400, result.stderr)
            let korean = app.run("todo", "add", "x", "--due", when, "--lang", "ko", "--json")
            XCTAssertEqual(korean.errorCode, "usage", when)
        }
        XCTAssertTrue(app.run("todo", "add", "x", "--due", "someday").stderr.contains("tomorrow 18:00"))
        XCTAssertTrue(app.run("todo", "add", "x", "--due", "someday", "--lang", "ko").stderr.contains("모레 저녁 7시"))
        // The help still lists every form.
        let help = app.run("todo", "add", "--help").stdout
        for form in ["tonight", "end of month", "HH:MM", "RFC 3339"] { XCTAssertTrue(help.contains(form), form) }
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 0)
    }

    func testThePartsOfTheDayAndTheEndsOfMonthsInWords() {
        for (when, time) in [("모레 저녁 7시", " 19:00"), ("내일 밤", " 21:00"), ("tomorrow evening", " 18:00"),
                             ("내일 아침", " 08:00"), ("tomorrow night at 9:30", " 21:30"), ("내일저녁", " 18:00")] {
            let value = due(when)
            XCTAssertEqual(value?.hasTime, true, when)
            XCTAssertTrue(value?.local.hasSuffix(time) ?? false, "\(when): \(String(describing: value))")
        }
        let endOfMonth = due("eom")?.local
        for when in ["end of month", "end of the month", "월말", "이번 달 말"] {
            XCTAssertEqual(due(when)?.local, endOfMonth, when)
        }
        for when in ["저녁 3시", "밤 12시", "evening 7am", "end of"] {
            XCTAssertEqual(app.run("todo", "add", "x", "--due", when).status, 64, when)
        }
    }

    func testADateFarInThePastOrFutureIsTakenWithANoteOnStderr() {
        let past = app.run("todo", "add", "x", "--due", "2020-01-01")
        XCTAssertEqual(past.status, 0, past.stderr)
        XCTAssertEqual(past.stderr, "memoapp: 2020-01-01 is in the past\n")
        let future = app.run("todo", "add", "x", "--due", "2099-06-01 9:00", "--lang", "ko")
        XCTAssertEqual(future.status, 0, future.stderr)
        XCTAssertEqual(future.stderr, "memoapp: 2099-06-01 09:00은(는) 5년도 더 뒤입니다\n")
        let edited = app.run("todo", "edit", "1", "--due", "2019-12-31")
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertTrue(edited.stderr.contains("2019-12-31 is in the past"), edited.stderr)
        let likely = app.run("todo", "add", "x", "--due", "tomorrow")
        XCTAssertEqual(likely.stderr, "")
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 3, "warned, and kept")
    }
}
