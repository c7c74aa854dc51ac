import Foundation
import TestSupport
import XCTest

/// `GET /api/v1/dates/parse`: the due words read as a to-do's due would be,
/// with nothing stored. The server reads the real clock, so relative words
/// are checked by what holds on any day (the time kept, a warning for a
/// date years away), absolute ones exactly.
final class DateParseRouteTests: XCTestCase {
    private func parse(_ server: APITestServer, _ text: String, _ extra: String = "",
                       headers: [String] = []) -> CurlResult {
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return server.curl("GET", "/api/v1/dates/parse?text=" + encoded + extra, headers: headers)
    }

    private func message(_ result: CurlResult) -> String {
        ((result.object["error"] as? [String: Any])?["message"] as? String) ?? ""
    }

    func testWordsAreAnsweredAsTheToDoWouldStoreThem() throws {
        let server = try APITestServer()
        XCTAssertEqual(parse(server, "tomorrow").status, 403, "behind the gate, as every other route")
        server.onboard()
        let timed = parse(server, "2020-01-01 18:30")
        XCTAssertEqual(timed.status, 200, timed.text)
        XCTAssertEqual(timed.object["due_local"] as? String, "2020-01-01 18:30")
        XCTAssertEqual(timed.object["due_has_time"] as? Bool, true)
        XCTAssertEqual(timed.object["warning"] as? String, "2020-01-01 18:30 is in the past")
        for (text, time) in [("tomorrow 18:00", " 18:00"), ("모레 저녁 7시", " 19:00"), ("내일 밤", " 21:00"),
                             ("tomorrow evening at 7", " 19:00")] {
            let result = parse(server, text)
            XCTAssertEqual(result.status, 200, "\(text): \(result.text)")
            XCTAssertTrue((result.object["due_local"] as? String)?.hasSuffix(time) == true, "\(text): \(result.text)")
            XCTAssertTrue(result.object["warning"] is NSNull, "\(text): \(result.text)")
            XCTAssertNotNil(result.object["due_at"] as? String)
        }
        let month = parse(server, "end of month")
        XCTAssertEqual(month.object["due_has_time"] as? Bool, false)
        XCTAssertEqual(month.object["due_local"] as? String, parse(server, "월말").object["due_local"] as? String)
        // The to-do made from the same words has the same due.
        let made = server.curl("POST", "/api/v1/todos", json: #"{"title": "t", "due": "2020-01-01 18:30"}"#)
        XCTAssertEqual(made.object["due_at"] as? String, timed.object["due_at"] as? String)
    }

    func testAWarningIsInTheRequestsLanguage() throws {
        let server = try APITestServer()
        server.onboard()
        let korean = parse(server, "+100m", "&lang=ko")
        XCTAssertEqual(korean.status, 200, korean.text)
        XCTAssertTrue((korean.object["warning"] as? String)?.hasSuffix("은(는) 5년도 더 뒤입니다") == true, korean.text)
        let english = parse(server, "+100m", headers: ["Accept-Language: en-GB"])
        XCTAssertTrue((english.object["warning"] as? String)?.hasSuffix(" is more than 5 years away") == true, english.text)
        XCTAssertEqual(parse(server, "2019-06-01", headers: ["Accept-Language: ko-KR"]).object["warning"] as? String,
                       "2019-06-01은(는) 지난 날짜입니다")
    }

    func testWordsThatAreNoDateAreRefusedShortlyInTheRequestsLanguage() throws {
        let server = try APITestServer()
        server.onboard()
        let english = parse(server, "someday")
        XCTAssertEqual(english.status, 400)
        XCTAssertEqual(english.errorCode, "usage")
        XCTAssertEqual(message(english), "unrecognized date 'someday'; try tomorrow 18:00, tonight, dec 25")
        let korean = parse(server, "언젠가", "&lang=ko")
        XCTAssertEqual(korean.status, 400)
        XCTAssertTrue(message(korean).contains("모레 저녁 7시"), message(korean))
        for text in ["저녁 3시", "밤 12시", "tomorrow 25:00", "feb 30", "   ", "mon\u{1B}[2Jday", "a\u{0}b", "\u{202E}fri",
                     String(repeating: "가", count: 200), "end of"] {
            let result = parse(server, text)
            XCTAssertEqual(result.status, 400, "\(text.debugDescription): \(result.text)")
            XCTAssertEqual(result.errorCode, "usage", text.debugDescription)
            XCTAssertLessThan(message(result).count, 160, message(result))
            XCTAssertFalse(message(result).unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            }, message(result).debugDescription)
        }
    }

    func testTheTextIsRangeChecked() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("GET", "/api/v1/dates/parse").status, 400, "text is required")
        XCTAssertEqual(parse(server, "").status, 400)
        let long = parse(server, String(repeating: "a", count: 201))
        XCTAssertEqual(long.status, 400)
        XCTAssertTrue(message(long).contains("1 to 200"), message(long))
        XCTAssertEqual(parse(server, "tomorrow", "&when=now").status, 400, "a query item the route does not read")
        XCTAssertEqual(parse(server, "tomorrow", "&lang=fr").status, 400)
        XCTAssertEqual(server.curl("POST", "/api/v1/dates/parse?text=tomorrow").status, 405)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?status=all").array.count, 0, "nothing is stored")
    }
}
