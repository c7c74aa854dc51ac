import Foundation
import TestSupport
import XCTest

/// `/api/v1/todos`: the list's filters, creation, validators, idempotency, limits.
final class TodoRouteTests: XCTestCase {
    func testCreateReadListChangeFinishAndRemove() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/todos",
                                  json: #"{"title": "buy milk", "priority": "high", "tags": ["Home"], "due": "2026-12-04"}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let id = created.object["id"] as? Int ?? 0
        XCTAssertEqual(created.header("Location"), "/api/v1/todos/\(id)")
        XCTAssertEqual(created.object["tags"] as? [String], ["Home"])
        XCTAssertEqual(created.object["due_local"] as? String, "2026-12-04")
        XCTAssertNotNil(created.header("ETag"))

        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(id)").object["title"] as? String, "buy milk")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 1)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?tag=home&priority=high").array.count, 1)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?tag=work").array.count, 0)

        let changed = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"title": "buy oat milk", "due": null, "add_tags": ["shop"]}"#)
        XCTAssertEqual(changed.status, 200, changed.text)
        XCTAssertEqual(changed.object["title"] as? String, "buy oat milk")
        XCTAssertTrue(changed.object["due_at"] is NSNull)
        XCTAssertEqual(changed.object["tags"] as? [String], ["Home", "shop"])

        XCTAssertEqual(server.curl("POST", "/api/v1/todos/\(id)/done").object["is_done"] as? Bool, true)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 0)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?status=done").array.count, 1)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/\(id)/undo").object["is_done"] as? Bool, false)

        let removed = server.curl("DELETE", "/api/v1/todos/\(id)")
        XCTAssertEqual(removed.status, 200)
        XCTAssertEqual((removed.object["removed"] as? [[String: Any]])?.first?["id"] as? Int, id)
        let gone = server.curl("GET", "/api/v1/todos/\(id)")
        XCTAssertEqual(gone.status, 404)
        XCTAssertEqual(gone.errorCode, "not_found")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/abc").status, 404)
    }

    func testDueTakesTheCommandLinesRicherDates() throws {
        let server = try APITestServer()
        server.onboard()
        for (due, local) in [("2099-12-04T09:00", "2099-12-04 09:00"), ("2099-12-04 6:30pm", "2099-12-04 18:30"),
                             ("2099-12-04 오후 6시", "2099-12-04 18:00")] {
            let created = server.curl("POST", "/api/v1/todos", json: "{\"title\": \"x\", \"due\": \"\(due)\"}")
            XCTAssertEqual(created.status, 201, created.text)
            XCTAssertEqual(created.object["due_local"] as? String, local, due)
        }
        let bad = server.curl("POST", "/api/v1/todos", json: #"{"title": "x", "due": "in 3 fortnights"}"#)
        XCTAssertEqual(bad.status, 422)
        XCTAssertEqual(bad.errorCode, "bad_input")
    }

    func testATimerTiedToAToDoAndItsDismissal() throws {
        let server = try APITestServer()
        server.onboard()
        let todo = server.curl("POST", "/api/v1/todos", json: #"{"title": "write"}"#)
        XCTAssertEqual(todo.object["time_spent_seconds"] as? Double, 0)
        let id = todo.object["id"] as? Int ?? 0
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: #"{"todo_id": 99}"#).status, 404)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: #"{"todo_id": "1"}"#).status, 422)
        let timer = server.curl("POST", "/api/v1/timers", json: #"{"todo_id": \#(id)}"#)
        XCTAssertEqual(timer.status, 201, timer.text)
        XCTAssertEqual(timer.object["todo_id"] as? Int, id)
        let timerID = timer.object["id"] as? Int ?? 0
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/\(timerID)/dismiss").status, 409, "still running")
        let stopped = server.curl("POST", "/api/v1/timers/\(timerID)/stop")
        let spent = server.curl("GET", "/api/v1/todos/\(id)")
        XCTAssertEqual(spent.object["time_spent_seconds"] as? Double ?? -1, stopped.object["elapsed"] as? Double ?? -2,
                       accuracy: 0.0015)
        XCTAssertNil(server.curl("GET", "/api/v1/todos").array.first?["time_spent_seconds"])
        // The item's ETag is the detail's: a PATCH with it is not refused.
        let patched = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"title": "write more"}"#,
                                  headers: ["If-Match: \(spent.header("ETag") ?? "")"])
        XCTAssertEqual(patched.status, 200, patched.text)
        let dismissed = server.curl("POST", "/api/v1/timers/\(timerID)/dismiss")
        XCTAssertEqual(dismissed.status, 200, dismissed.text)
        XCTAssertNotNil(dismissed.object["seen_at"] as? String)
    }

    func testAReminderTimeIsSetChangedAndRemoved() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/todos", json: #"{"title": "call", "remind": "2030-01-02"}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let id = created.object["id"] as? Int ?? 0
        XCTAssertNotNil(created.object["remind_at"] as? String, "a date alone is its morning, in the server's zone")
        let moved = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"remind": "2030-01-03 18:30"}"#)
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertNotEqual(moved.object["remind_at"] as? String, created.object["remind_at"] as? String)
        let removed = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"remind": null}"#)
        XCTAssertTrue(removed.object["remind_at"] is NSNull, removed.text)
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"remind": "someday"}"#).status, 422)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "x", "remind": 5}"#).status, 422)
    }

    func testBadValuesAreRefusedWithTheirStatus() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?limit=0").status, 400)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?limit=501").status, 400)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?sort=sideways").status, 400)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?status=maybe").errorCode, "usage")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": ""}"#).status / 100, 4)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": 5}"#).status, 422)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "x", "colour": "red"}"#).status, 422)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: "not json").errorCode, "bad_input")
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/1", json: "{}").status, 422)
        let huge = "{\"title\": \"" + String(repeating: "a", count: 1 << 20) + "\"}"
        let tooLarge = server.curl("POST", "/api/v1/todos", json: huge)
        XCTAssertEqual(tooLarge.status, 413)
        XCTAssertEqual(tooLarge.errorCode, "too_large")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 0)
    }

    func testETagsAnswer304AndAStaleIfMatchGets412WithTheCurrentItem() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/todos", json: #"{"title": "first"}"#)
        let id = created.object["id"] as? Int ?? 0
        let tag = try XCTUnwrap(created.header("ETag"))
        let fresh = server.curl("GET", "/api/v1/todos/\(id)", headers: ["If-None-Match: \(tag)"])
        XCTAssertEqual(fresh.status, 304)
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"title": "second"}"#,
                                   headers: ["If-Match: \(tag)"]).status, 200)
        let stale = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"title": "third"}"#, headers: ["If-Match: \(tag)"])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale.object["title"] as? String, "second")
        XCTAssertNotEqual(stale.header("ETag"), tag)
        XCTAssertEqual(server.curl("DELETE", "/api/v1/todos/\(id)", headers: ["If-Match: \(tag)"]).status, 412)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(id)").object["title"] as? String, "second")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(id)", headers: ["If-None-Match: \(tag)"]).status, 200)
    }

    func testAnIdempotencyKeyDoesAPostOnce() throws {
        let server = try APITestServer()
        server.onboard()
        let first = server.curl("POST", "/api/v1/todos", json: #"{"title": "once"}"#, headers: ["Idempotency-Key: k1"])
        let again = server.curl("POST", "/api/v1/todos", json: #"{"title": "once"}"#, headers: ["Idempotency-Key: k1"])
        XCTAssertEqual(first.status, 201)
        XCTAssertEqual(again.status, 201)
        XCTAssertEqual(first.object["id"] as? Int, again.object["id"] as? Int)
        let other = server.curl("POST", "/api/v1/todos", json: #"{"title": "twice"}"#, headers: ["Idempotency-Key: k1"])
        XCTAssertEqual(other.status, 422)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 1)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "once"}"#, headers: ["Idempotency-Key: k2"]).status, 201)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.count, 2)
    }

    func testTheCommandLineAndTheServerSeeEachOthersWrites() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        XCTAssertEqual(memoapp.run("todo", "add", "from", "the", "terminal").status, 0)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.first?["title"] as? String, "from the terminal")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "from the server"}"#).status, 201)
        let listed = memoapp.run("--json", "todo", "list", "--sort", "created").array()
        XCTAssertEqual(listed.map { $0["title"] as? String }, ["from the terminal", "from the server"])
    }
}

/// Keyset paging: `limit`, an opaque `cursor`, `Link: rel="next"`.
final class PagingTests: XCTestCase {
    func testPagesOfToDosInEveryOrderCoverTheListOnceWhileItemsAreAdded() throws {
        let server = try APITestServer()
        server.onboard()
        let bodies = [#"{"title": "a", "due": "2099-12-05", "priority": "low"}"#, #"{"title": "b"}"#,
                      #"{"title": "c", "due": "2099-12-05", "priority": "high"}"#, #"{"title": "d", "priority": "high"}"#,
                      #"{"title": "e", "due": "2099-12-01"}"#, #"{"title": "f"}"#, #"{"title": "g", "due": "2099-12-05"}"#]
        for body in bodies { XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: body).status, 201) }
        for sort in ["due", "priority", "created", "newest"] {
            let whole = server.curl("GET", "/api/v1/todos?sort=\(sort)").array.map { $0["title"] as? String ?? "" }
            // "created" comes before "newest" and adds one.
            XCTAssertEqual(whole.count, bodies.count + (sort == "newest" ? 1 : 0))
            var paged: [String] = []
            var next: String? = "/api/v1/todos?sort=\(sort)&limit=2"
            while let path = next {
                let page = server.curl("GET", path)
                XCTAssertEqual(page.status, 200, page.text)
                paged += page.array.map { $0["title"] as? String ?? "" }
                next = page.header("Link").flatMap { link in
                    link.range(of: "<").flatMap { open in link.range(of: ">").map { String(link[open.upperBound..<$0.lowerBound]) } }
                }
                XCTAssertLessThanOrEqual(paged.count, bodies.count + 2, "paging does not end")
                if paged.count > bodies.count + 2 { break }
                if paged.count == 4 && sort == "created" {
                    // Added while paging: comes last in creation order, and is seen once.
                    XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "h"}"#).status, 201)
                }
                if paged.count == 4 && sort == "newest" {
                    // Added while paging: it goes before the first page, and the
                    // pages after go on from where they were, skipping nothing.
                    XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "i"}"#).status, 201)
                }
            }
            XCTAssertEqual(paged, sort == "created" ? whole + ["h"] : whole, sort)
            if sort == "newest" { XCTAssertEqual(whole.first, "h", "the last added first") }
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?cursor=nonsense").status, 400)
    }

    func testPagesOfMemos() throws {
        let server = try APITestServer()
        server.onboard()
        for index in 1...5 { XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: #"{"text": "memo \#(index)"}"#).status, 201) }
        XCTAssertEqual(server.curl("POST", "/api/v1/memos/3/pin").status, 200)
        let whole = server.curl("GET", "/api/v1/memos").array.map { $0["id"] as? Int ?? 0 }
        XCTAssertEqual(whole, [3, 5, 4, 2, 1])
        let first = server.curl("GET", "/api/v1/memos?limit=3")
        let link = try XCTUnwrap(first.header("Link"))
        let path = String(link.dropFirst().prefix { $0 != ">" })
        let second = server.curl("GET", path)
        XCTAssertEqual((first.array + second.array).map { $0["id"] as? Int ?? 0 }, whole)
        XCTAssertNil(second.header("Link"))
    }
}

/// The server and `memoapp` commands writing one home at once lose nothing.
final class ConcurrentWriteTests: XCTestCase {
    func testRequestsOnSeveralConnectionsAndTheCommandLineAtOnceLoseNothing() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        let statuses = Locked<[Int]>([])
        runConcurrently(workers: 4) { worker in
            if worker == 0 {
                for index in 0..<10 {
                    statuses.withValue { $0.append(memoapp.run("todo", "add", "cli \(index)").status == 0 ? 201 : -1) }
                }
            } else {
                for index in 0..<10 {
                    let result = server.curl("POST", "/api/v1/todos", json: #"{"title": "http \#(worker)-\#(index)"}"#)
                    statuses.withValue { $0.append(result.status) }
                }
            }
        }
        XCTAssertEqual(statuses.current.filter { $0 != 201 }, [])
        let titles = Set(server.curl("GET", "/api/v1/todos?limit=500").array.compactMap { $0["title"] as? String })
        XCTAssertEqual(titles.count, 40)
        XCTAssertEqual(memoapp.run("--json", "todo", "list", "--limit", "500").array().count, 40)
    }
}
