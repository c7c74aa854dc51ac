import Foundation
@testable import MemoServer
import TestSupport
import XCTest

/// `POST /api/v1/todos/batch`: many to-dos changed as one step, undone by one
/// undo; every refused body changes nothing.
final class TodoBatchRouteTests: XCTestCase {
    func testDoneOnManyIsOneStepThatOneUndoReverses() throws {
        let server = try madeServer(todos: 5)
        let before = todos(server)
        let result = server.curl("POST", "/api/v1/todos/batch", json: #"{"action": "done", "ids": [1, 3, 4, 3]}"#)
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertEqual(result.object["action"] as? String, "done")
        let answered = result.object["todos"] as? [[String: Any]] ?? []
        XCTAssertEqual(answered.map { $0["id"] as? Int }, [1, 3, 4], "a repeated id counts once")
        XCTAssertEqual(answered.map { $0["is_done"] as? Bool }, [true, true, true])
        let step = try XCTUnwrap(result.header("Undo-Step"))
        let history = server.curl("GET", "/api/v1/undo").array
        XCTAssertEqual(history.first?["id"] as? Int, Int(step))
        XCTAssertEqual(history.count, 5 + 1, "five adds, then one step for the three")
        let done = server.curl("GET", "/api/v1/todos?status=done").array.compactMap { $0["id"] as? Int }
        XCTAssertEqual(done.sorted(), [1, 3, 4])

        XCTAssertEqual(server.curl("POST", "/api/v1/undo/\(step)").status, 200)
        XCTAssertEqual(todos(server), before, "one undo brings all three back")
    }

    func testRemoveAndTagOnManyAreUndoneWhole() throws {
        let server = try madeServer(todos: 3)
        let before = todos(server)
        let tagged = server.curl("POST", "/api/v1/todos/batch",
                                 json: ##"{"action": "tag", "ids": [1, 2], "tags": ["#집", "errand"]}"##)
        XCTAssertEqual(tagged.status, 200, tagged.text)
        XCTAssertEqual((tagged.object["todos"] as? [[String: Any]])?.map { $0["tags"] as? [String] ?? [] },
                       [["first", "집", "errand"], ["집", "errand"]], "added after the tags there, # dropped")
        let tagStep = try XCTUnwrap(tagged.header("Undo-Step"))
        let removed = server.curl("POST", "/api/v1/todos/batch", json: #"{"action": "remove", "ids": [2, 3]}"#)
        XCTAssertEqual(removed.status, 200, removed.text)
        XCTAssertEqual((removed.object["todos"] as? [[String: Any]])?.map { $0["id"] as? Int }, [2, 3])
        XCTAssertEqual(todos(server).map { $0["id"] }, ["1"])

        XCTAssertEqual(server.curl("POST", "/api/v1/undo").status, 200, "the removal, as one step")
        XCTAssertEqual(todos(server).count, 3)
        XCTAssertEqual(server.curl("POST", "/api/v1/undo/\(tagStep)").status, 200)
        XCTAssertEqual(todos(server), before)
    }

    func testRefusedBodiesChangeNothing() throws {
        let server = try madeServer(todos: 3)
        let before = todos(server)
        let steps = server.curl("GET", "/api/v1/undo").array.count
        let tooMany = "[" + (1...1001).map(String.init).joined(separator: ",") + "]"
        let refusals: [(String, Int, String)] = [
            (#"{"action": "done", "ids": []}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": \#(tooMany)}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1, "2"]}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1, 2.5]}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1, null]}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": "1,2"}"#, 422, "bad_input"),
            (#"{"action": "done"}"#, 422, "bad_input"),
            (#"{"ids": [1]}"#, 422, "bad_input"),
            (#"{"action": "finish", "ids": [1]}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1], "tags": ["x"]}"#, 422, "bad_input"),
            (#"{"action": "tag", "ids": [1]}"#, 422, "bad_input"),
            (#"{"action": "tag", "ids": [1], "tags": []}"#, 422, "bad_input"),
            (#"{"action": "tag", "ids": [1], "tags": ["two words"]}"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1], "extra": 1}"#, 422, "bad_input"),
            (#"[1, 2]"#, 422, "bad_input"),
            (#"{"action": "done", "ids": [1, 99, 2, 98]}"#, 404, "not_found"),
            (#"{"action": "remove", "ids": [3, 0]}"#, 404, "not_found"),
            (#"{"action": "tag", "ids": [-1], "tags": ["x"]}"#, 404, "not_found"),
            (#"{"action": "done", "ids": [9223372036854775808]}"#, 422, "bad_input"),
        ]
        for (body, status, code) in refusals {
            let result = server.curl("POST", "/api/v1/todos/batch", json: body)
            XCTAssertEqual(result.status, status, "\(body.prefix(80)): \(result.text)")
            XCTAssertEqual(result.errorCode, code, String(body.prefix(80)))
            XCTAssertNil(result.header("Undo-Step"), String(body.prefix(80)))
        }
        let unknown = server.curl("POST", "/api/v1/todos/batch", json: #"{"action": "done", "ids": [1, 99, 2, 98]}"#)
        let message = (unknown.object["error"] as? [String: Any])?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("99") && message.contains("98"), "every missing id named: \(message)")
        XCTAssertEqual(todos(server), before, "nothing changed")
        XCTAssertEqual(server.curl("GET", "/api/v1/undo").array.count, steps, "no step recorded")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/batch", json: #"{"action": "done", "ids": [1]}"#,
                                   authorized: false).status, 401)
    }

    func testTheRouteIsInTheOpenAPIDocument() throws {
        let server = try madeServer(todos: 0)
        let document = server.curl("GET", "/api/v1/openapi.json").object
        let paths = document["paths"] as? [String: Any] ?? [:]
        let post = (paths["/api/v1/todos/batch"] as? [String: Any])?["post"] as? [String: Any]
        XCTAssertNotNil(post, "declared with its description")
        XCTAssertNotNil((post?["responses"] as? [String: Any])?["404"])
    }

    // MARK: -

    private func madeServer(todos count: Int) throws -> APITestServer {
        let server = try APITestServer()
        server.onboard()
        for index in 0..<count {
            let body = index == 0 ? #"{"title": "one", "tags": ["first"]}"# : #"{"title": "todo \#(index)"}"#
            XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: body).status, 201)
        }
        return server
    }

    /// Every to-do as the list gives it, without `rev` (an undo moves it on).
    private func todos(_ server: APITestServer) -> [[String: String]] {
        server.curl("GET", "/api/v1/todos?status=all&sort=created").array.map { todo in
            todo.filter { $0.key != "rev" && $0.key != "updated_at" }.mapValues { "\($0)" }
        }
    }
}
