import Foundation
import TestSupport
import XCTest

/// The list filters over HTTP: repeated `tag` (all must hold), `tag=-T`
/// (without it), and `/api/v1/memos`' `since`, `until`, `sort`, `reverse`.
/// `Notes.TagFilter.largestCount`, as a client knows it from docs/api.md.
private enum TagFilterLimit {
    static let count = 32
}

final class ListFilterRouteTests: XCTestCase {
    private func ids(_ server: APITestServer, _ target: String, file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        let result = server.curl("GET", target)
        XCTAssertEqual(result.status, 200, result.text, file: file, line: line)
        return result.array.compactMap { $0["id"] as? Int }
    }

    func testTagsNarrowAndExcludeOnToDosAndMemos() throws {
        let server = try APITestServer()
        server.onboard()
        for tags in [#"["work", "urgent"]"#, #"["work"]"#, "[]"] {
            XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "t", "tags": "# + tags + "}").status, 201)
            XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: #"{"text": "m", "tags": "# + tags + "}").status, 201)
        }
        XCTAssertEqual(ids(server, "/api/v1/todos?tag=work&tag=urgent"), [1])
        XCTAssertEqual(ids(server, "/api/v1/todos?tag=-work"), [3])
        XCTAssertEqual(ids(server, "/api/v1/todos?tag=work&tag=-urgent"), [2])
        XCTAssertEqual(ids(server, "/api/v1/memos?tag=work&tag=urgent"), [1])
        XCTAssertEqual(ids(server, "/api/v1/memos?tag=-urgent"), [3, 2])
        let bad = server.curl("GET", "/api/v1/memos?tag=-")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.errorCode, "usage")
        // Several exclusions at once, in any case, each one counted.
        XCTAssertEqual(ids(server, "/api/v1/todos?tag=-URGENT&tag=-nothing"), [2, 3])
        XCTAssertEqual(ids(server, "/api/v1/todos?tag=-urgent&tag=-Work"), [3])
        // A list takes a bounded number of tags: hundreds were seconds of work.
        let many = (0...TagFilterLimit.count).map { "tag=-t\($0)" }.joined(separator: "&")
        let refused = server.curl("GET", "/api/v1/todos?" + many)
        XCTAssertEqual(refused.status, 400, refused.text)
        XCTAssertEqual(refused.errorCode, "usage")
        let most = (1...TagFilterLimit.count).map { "tag=-t\($0)" }.joined(separator: "&")
        XCTAssertEqual(ids(server, "/api/v1/todos?" + most), [1, 2, 3])
    }

    func testToDosDueBeforeAndAfter() throws {
        let server = try APITestServer()
        server.onboard()
        for due in ["2020-01-01", "2099-06-01 09:00", "2099-12-31"] {
            XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: "{\"title\": \"t\", \"due\": \"\(due)\"}").status, 201)
        }
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "undated"}"#).status, 201)
        XCTAssertEqual(ids(server, "/api/v1/todos?due_before=2099-06-01"), [1])
        XCTAssertEqual(ids(server, "/api/v1/todos?due_after=2099-06-01"), [3])
        XCTAssertEqual(ids(server, "/api/v1/todos?due_after=2020-01-01&due_before=2099-12-31"), [2])
        XCTAssertEqual(ids(server, "/api/v1/todos?due=week"), [1], "the week includes what is overdue")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?due_before=someday").status, 400)
    }

    func testMemoDatesOrdersAndPaging() throws {
        let server = try APITestServer()
        server.onboard()
        for title in ["banana", "apple", "cherry"] {
            XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: "{\"text\": \"x\", \"title\": \"\(title)\"}").status, 201)
        }
        XCTAssertEqual(ids(server, "/api/v1/memos?sort=title"), [2, 1, 3])
        XCTAssertEqual(ids(server, "/api/v1/memos?sort=title&reverse=true"), [3, 1, 2])
        XCTAssertEqual(ids(server, "/api/v1/memos?reverse=true"), [1, 2, 3])
        XCTAssertEqual(ids(server, "/api/v1/memos?since=2000-01-01&until=2099-12-31"), [3, 2, 1])
        XCTAssertEqual(ids(server, "/api/v1/memos?until=2000-01-01"), [])
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?since=someday").status, 400)
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?sort=size").status, 400)
        // A full page in the default order links the next; another order does not.
        let page = server.curl("GET", "/api/v1/memos?limit=2")
        XCTAssertNotNil(page.header("Link"))
        XCTAssertNil(server.curl("GET", "/api/v1/memos?limit=2&sort=title").header("Link"))
    }
}
