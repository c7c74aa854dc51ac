import Foundation
import TestSupport
import XCTest

/// Recurring to-dos over `/api/v1/todos`: `repeat` and `repeat_from` in
/// POST and PATCH bodies, the `repeat` object in answers, the next
/// occurrence made by `/done`. Dues are in 2099: nothing depends on today.
final class RecurringTodoRouteTests: XCTestCase {
    private func rule(_ object: [String: Any]) -> String? {
        guard let rule = object["repeat"] as? [String: Any] else { return nil }
        return "\(rule["every"] as? Int ?? 0) \(rule["unit"] as? String ?? "?") \(rule["from"] as? String ?? "?")"
    }

    func testCreateChangeAndFinishARecurringToDo() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/todos",
                                  json: #"{"title": "water plants", "due": "2099-01-31", "repeat": "monthly"}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(rule(created.object), "1 month due")
        let id = created.object["id"] as? Int ?? 0

        let done = server.curl("POST", "/api/v1/todos/\(id)/done")
        XCTAssertEqual(done.status, 200, done.text)
        XCTAssertEqual(done.object["is_done"] as? Bool, true)
        let open = server.curl("GET", "/api/v1/todos").array
        XCTAssertEqual(open.count, 1)
        XCTAssertEqual(open.first?["due_local"] as? String, "2099-02-28")
        XCTAssertEqual(open.first.flatMap(rule), "1 month due")
        let nextID = open.first?["id"] as? Int ?? 0

        let changed = server.curl("PATCH", "/api/v1/todos/\(nextID)", json: #"{"repeat": "every 2 weeks", "repeat_from": "done"}"#)
        XCTAssertEqual(changed.status, 200, changed.text)
        XCTAssertEqual(rule(changed.object), "2 week done")
        let fromOnly = server.curl("PATCH", "/api/v1/todos/\(nextID)", json: #"{"repeat_from": "due"}"#)
        XCTAssertEqual(rule(fromOnly.object), "2 week due")
        let stopped = server.curl("PATCH", "/api/v1/todos/\(nextID)", json: #"{"repeat": null}"#)
        XCTAssertEqual(stopped.status, 200, stopped.text)
        XCTAssertTrue(stopped.object["repeat"] is NSNull)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(id)").object["repeat"].map { $0 is NSNull }, false,
                       "the finished one keeps its rule")
    }

    func testBadRulesAreRefusedAndChangeNothing() throws {
        let server = try APITestServer()
        server.onboard()
        let bodies = [
            #"{"title": "x", "repeat": "weekly"}"#,
            #"{"title": "x", "due": "2099-01-01", "repeat": "sometimes"}"#,
            #"{"title": "x", "due": "2099-01-01", "repeat_from": "done"}"#,
            #"{"title": "x", "due": "2099-01-01", "repeat": "daily", "repeat_from": "later"}"#,
        ]
        for body in bodies {
            let result = server.curl("POST", "/api/v1/todos", json: body)
            XCTAssertEqual(result.status, 422, body + " " + result.text)
            XCTAssertEqual(result.errorCode, "bad_input", body)
        }
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "x", "due": "2099-01-01", "repeat": 7}"#).status,
                       422)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?status=all").array.count, 0)
        let plain = server.curl("POST", "/api/v1/todos", json: #"{"title": "y"}"#)
        let id = plain.object["id"] as? Int ?? 0
        XCTAssertTrue(plain.object["repeat"] is NSNull)
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"repeat": "daily"}"#).status, 422,
                       "no due date to count from")
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"repeat_from": "done"}"#).status, 422,
                       "no rule to change")
    }
}
