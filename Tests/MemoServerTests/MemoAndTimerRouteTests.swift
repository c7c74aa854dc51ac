import Foundation
import TestSupport
import XCTest

/// `/api/v1/memos`, `/api/v1/search` and `/api/v1/timers`.
final class MemoAndTimerRouteTests: XCTestCase {
    func testMemosCreatePinEditSearchAndRemove() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/memos", json: #"{"text": "장보기 목록: 우유, 빵", "title": "장보기", "tags": ["home"]}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let id = created.object["id"] as? Int ?? 0
        XCTAssertEqual(created.header("Location"), "/api/v1/memos/\(id)")
        XCTAssertEqual(server.curl("POST", "/api/v1/memos/\(id)/pin").object["is_pinned"] as? Bool, true)
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?pinned=true").array.count, 1)
        XCTAssertEqual(server.curl("POST", "/api/v1/memos/\(id)/unpin").object["is_pinned"] as? Bool, false)
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?pinned=true").array.count, 0)
        let edited = server.curl("PATCH", "/api/v1/memos/\(id)", json: #"{"title": null, "text": "우유"}"#)
        XCTAssertEqual(edited.status, 200, edited.text)
        XCTAssertTrue(edited.object["title"] is NSNull)
        let hits = server.curl("GET", "/api/v1/search?q=%EC%9A%B0%EC%9C%A0")
        XCTAssertEqual(hits.status, 200, hits.text)
        XCTAssertEqual(hits.array.count, 1)
        XCTAssertEqual(server.curl("GET", "/api/v1/search").status, 400)
        XCTAssertEqual(server.curl("DELETE", "/api/v1/memos/\(id)").status, 200)
        XCTAssertEqual(server.curl("GET", "/api/v1/memos/\(id)").status, 404)
    }

    func testTimersStartPauseResumeAndCancel() throws {
        let server = try APITestServer()
        server.onboard()
        let countdown = server.curl("POST", "/api/v1/timers", json: #"{"duration": "25m", "label": "tea"}"#)
        XCTAssertEqual(countdown.status, 201, countdown.text)
        let id = countdown.object["id"] as? Int ?? 0
        XCTAssertEqual(countdown.header("Location"), "/api/v1/timers/\(id)")
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(id)/pause").object["state"] as? String, "paused")
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(id)/pause").status, 409)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(id)/resume").object["state"] as? String, "running")
        XCTAssertEqual(server.curl("GET", "/api/v1/timers").array.count, 1)
        XCTAssertEqual(server.curl("DELETE", "/api/v1/timers/\(id)").object["state"] as? String, "cancelled")
        XCTAssertEqual(server.curl("GET", "/api/v1/timers").array.count, 0)
        XCTAssertEqual(server.curl("GET", "/api/v1/timers?all=true").array.count, 1)

        let stopwatch = server.curl("POST", "/api/v1/timers", json: "{}")
        let watch = stopwatch.object["id"] as? Int ?? 0
        XCTAssertEqual(stopwatch.object["kind"] as? String, "stopwatch")
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(watch)/lap").status, 200)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(watch)/stop").object["state"] as? String, "stopped")
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: #"{"duration": -1}"#).status, 422)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: #"{"duration": 1e12}"#).status, 422)
        XCTAssertEqual(server.curl("GET", "/api/v1/timers/999").status, 404)
    }
}
