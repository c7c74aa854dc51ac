import Foundation
import TestSupport
import XCTest

/// Tags in the PATCHes of to-dos, memos and voice memos: `tags` (the whole
/// list) or `add_tags` / `remove_tags`, the same rules and the same ETag
/// checks everywhere.
final class TagRouteTests: XCTestCase {
    func testAMemosTagsAreReplacedAddedAndRemoved() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/memos", json: #"{"text": "장보기", "tags": ["home", "errand"]}"#)
        let id = created.object["id"] as? Int ?? 0
        let replaced = server.curl("PATCH", "/api/v1/memos/\(id)", json: ##"{"tags": ["#work", "집", "WORK"]}"##)
        XCTAssertEqual(replaced.status, 200, replaced.text)
        XCTAssertEqual(replaced.object["tags"] as? [String], ["work", "집"])
        XCTAssertEqual(replaced.object["text"] as? String, "장보기", "the text is kept")
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?tag=%EC%A7%91").array.map { $0["id"] as? Int }, [id])
        XCTAssertEqual(server.curl("GET", "/api/v1/memos?tag=home").array.count, 0)
        let changed = server.curl("PATCH", "/api/v1/memos/\(id)", json: #"{"add_tags": ["later"], "remove_tags": ["Work"]}"#)
        XCTAssertEqual(changed.object["tags"] as? [String], ["집", "later"])
        XCTAssertEqual(server.curl("PATCH", "/api/v1/memos/\(id)", json: #"{"tags": null}"#).object["tags"] as? [String], [])
    }

    func testBadTagBodiesAreRefusedAndChangeNothing() throws {
        let server = try APITestServer()
        server.onboard()
        let id = server.curl("POST", "/api/v1/memos", json: #"{"text": "x", "tags": ["a"]}"#).object["id"] as? Int ?? 0
        for body in [#"{"tags": ["two words"]}"#, #"{"tags": [""]}"#, #"{"tags": ["a,b"]}"#, #"{"tags": "a"}"#,
                     #"{"tags": [1]}"#, #"{"tags": ["a"], "add_tags": ["b"]}"#, #"{"tags": [], "remove_tags": ["a"]}"#,
                     #"{"add_tags": ["x y"]}"#, #"{"remove_tags": [null]}"#, #"{"text": "y", "tags": ["bad tag"]}"#, "{}",
                     #"{"labels": ["a"]}"#] {
            let refused = server.curl("PATCH", "/api/v1/memos/\(id)", json: body)
            XCTAssertTrue([400, 422].contains(refused.status), "\(body): \(refused.status) \(refused.text)")
        }
        let memo = server.curl("GET", "/api/v1/memos/\(id)").object
        XCTAssertEqual(memo["tags"] as? [String], ["a"])
        XCTAssertEqual(memo["text"] as? String, "x")
        XCTAssertEqual(server.curl("PATCH", "/api/v1/memos/999", json: #"{"tags": []}"#).status, 404)
    }

    func testAStaleIfMatchKeepsTheTags() throws {
        let server = try APITestServer()
        server.onboard()
        let created = server.curl("POST", "/api/v1/memos", json: #"{"text": "x"}"#)
        let id = created.object["id"] as? Int ?? 0
        let tag = try XCTUnwrap(created.header("ETag"))
        let first = server.curl("PATCH", "/api/v1/memos/\(id)", json: #"{"tags": ["a"]}"#, headers: ["If-Match: \(tag)"])
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertNotEqual(first.header("ETag"), tag, "a tag change changes the version")
        let stale = server.curl("PATCH", "/api/v1/memos/\(id)", json: #"{"tags": ["b"]}"#, headers: ["If-Match: \(tag)"])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale.object["tags"] as? [String], ["a"], "the answer is the current memo")
    }

    func testAVoiceMemosTagsAndTitleChangeInOnePatch() throws {
        let server = try APITestServer()
        server.onboard()
        let uploaded = Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                                 "--data-binary", "@-", server.url("/api/v1/voice?title=Tone&tag=test")],
                                input: VoiceRouteTests.wav(frames: 800))
        XCTAssertEqual(uploaded.status, 201, uploaded.text)
        let tag = try XCTUnwrap(uploaded.header("ETag"))
        let changed = server.curl("PATCH", "/api/v1/voice/1", json: ##"{"title": "회의", "tags": ["meeting", "#work"]}"##,
                                  headers: ["If-Match: \(tag)"])
        XCTAssertEqual(changed.status, 200, changed.text)
        XCTAssertEqual(changed.object["title"] as? String, "회의")
        XCTAssertEqual(changed.object["tags"] as? [String], ["meeting", "work"])
        XCTAssertEqual(server.curl("GET", "/api/v1/voice?tag=test").array.count, 0)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice?tag=work").array.count, 1)
        let removed = server.curl("PATCH", "/api/v1/voice/1", json: #"{"remove_tags": ["MEETING"]}"#)
        XCTAssertEqual(removed.object["tags"] as? [String], ["work"])
        XCTAssertEqual(removed.object["title"] as? String, "회의")
        XCTAssertEqual(server.curl("PATCH", "/api/v1/voice/1", json: #"{"tags": ["a"]}"#, headers: ["If-Match: \(tag)"]).status,
                       412)
        for body in ["{}", #"{"tags": ["a b"]}"#, #"{"title": ""}"#, #"{"tags": ["a"], "add_tags": ["b"]}"#] {
            XCTAssertEqual(server.curl("PATCH", "/api/v1/voice/1", json: body).status, 422, body)
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1").object["tags"] as? [String], ["work"])
    }

    func testATodosTagsCanBeReplacedWholeToo() throws {
        let server = try APITestServer()
        server.onboard()
        let id = server.curl("POST", "/api/v1/todos", json: #"{"title": "t", "tags": ["a", "b"]}"#).object["id"] as? Int ?? 0
        let replaced = server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"tags": ["c", "A"]}"#)
        XCTAssertEqual(replaced.status, 200, replaced.text)
        XCTAssertEqual(replaced.object["tags"] as? [String], ["c", "A"])
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"tags": []}"#).object["tags"] as? [String], [])
        XCTAssertEqual(server.curl("PATCH", "/api/v1/todos/\(id)", json: #"{"tags": ["x"], "add_tags": ["y"]}"#).status, 422)
    }
}
