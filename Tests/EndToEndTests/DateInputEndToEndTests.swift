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

    func testUnknownInputIsAUsageErrorNamingTheForms() {
        for when in ["someday", "in 3 fortnights", "tomorrow 25:00", "13pm", "내일 오후 13시", "지난 주 금요일", "+99999m"] {
            let result = app.run("todo", "add", "x", "--due", when)
            XCTAssertEqual(result.status, 64, "\(when): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("HH:MM"), result.stderr)
            let korean = app.run("todo", "add", "x", "--due", when, "--lang", "ko", "--json")
            XCTAssertEqual(korean.errorCode, "usage", when)
        }
        XCTAssertTrue(app.run("todo", "add", "x", "--due", "someday").stderr.contains("in 3 days"))
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 0)
    }
}
