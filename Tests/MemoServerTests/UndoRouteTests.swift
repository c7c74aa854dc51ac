import Foundation
import MemoKit
@testable import MemoServer
import TestSupport
import XCTest

/// `/api/v1/undo`: every change made over HTTP is a step of the data home's
/// one undo history, undone back to exactly what was there (its export
/// equal, ids, uids, dates, rules, reminders, tags and audio bytes kept).
final class UndoRouteTests: XCTestCase {
    func testEveryKindOfChangeMadeOverHTTPIsUndoneToWhatWasThere() throws {
        let server = try APITestServer()
        server.onboard()
        // Items for the changes below to work on: one of each kind.
        created(server, "/api/v1/todos", #"{"title": "water plants", "due": "2030-01-15", "repeat": "weekly", "remind": "2030-01-15 08:00", "tags": ["home"]}"#)
        created(server, "/api/v1/memos", #"{"text": "회의록 초안", "tags": ["work"]}"#)
        created(server, "/api/v1/timers", #"{"label": "laps"}"#)
        created(server, "/api/v1/timers", #"{"duration": 600, "label": "focus", "todo_id": 1}"#)
        let upload = Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                               "--data-binary", "@-", server.url("/api/v1/voice?title=Tone&tag=test")],
                              input: VoiceRouteTests.wav(frames: 16_000))
        XCTAssertEqual(upload.status, 201, upload.text)
        let audioBefore = try libraryAudio(server)

        let changes: [(String, String, String?)] = [
            ("POST", "/api/v1/todos", #"{"title": "another"}"#),
            ("PATCH", "/api/v1/todos/1", #"{"title": "water the plants", "tags": ["garden"], "due": null, "remind": null, "repeat": null}"#),
            ("POST", "/api/v1/todos/1/done", nil),
            ("DELETE", "/api/v1/todos/1", nil),
            ("POST", "/api/v1/memos", #"{"text": "new"}"#),
            ("PATCH", "/api/v1/memos/1", #"{"text": "고친 회의록", "add_tags": ["later"]}"#),
            ("POST", "/api/v1/memos/1/pin", nil),
            ("DELETE", "/api/v1/memos/1", nil),
            ("POST", "/api/v1/timers", #"{"duration": "25m"}"#),
            ("POST", "/api/v1/timers/1/lap", nil),
            ("POST", "/api/v1/timers/2/pause", nil),
            ("POST", "/api/v1/timers/1/stop", nil),
            ("DELETE", "/api/v1/timers/2", nil),
            ("PATCH", "/api/v1/voice/1", #"{"title": "회의", "tags": ["meeting"]}"#),
            ("POST", "/api/v1/voice/1/trim", #"{"start": 0.25, "end": 0.5}"#),
            ("DELETE", "/api/v1/voice/1", nil),
        ]
        for (method, path, body) in changes {
            let before = try export(server)
            let changed = server.curl(method, path, json: body)
            XCTAssertTrue((200...201).contains(changed.status), "\(method) \(path): \(changed.text)")
            XCTAssertNotEqual(try export(server), before, "\(method) \(path) changed something")
            let step = try XCTUnwrap(changed.header("Undo-Step"), "\(method) \(path) names its step")
            let listed = server.curl("GET", "/api/v1/undo").array.first
            XCTAssertEqual(listed?["id"] as? Int, Int(step))
            XCTAssertEqual(listed?["origin"] as? String, "api")
            let undone = server.curl("POST", "/api/v1/undo")
            XCTAssertEqual(undone.status, 200, "\(method) \(path): \(undone.text)")
            XCTAssertEqual(undone.object["id"] as? Int, Int(step))
            XCTAssertEqual(try export(server), before, "\(method) \(path) undone")
            XCTAssertEqual(try libraryAudio(server), audioBefore, "\(method) \(path): the audio as it was")
        }
    }

    func testAnOlderStepIsUndoneUnlessALaterOneTouchedItsItems() throws {
        let server = try APITestServer()
        server.onboard()
        created(server, "/api/v1/todos", #"{"title": "one"}"#)
        created(server, "/api/v1/todos", #"{"title": "two"}"#)
        let first = try XCTUnwrap(server.curl("PATCH", "/api/v1/todos/1", json: #"{"title": "one, renamed"}"#).header("Undo-Step"))
        let second = try XCTUnwrap(server.curl("PATCH", "/api/v1/todos/2", json: #"{"title": "two, renamed"}"#).header("Undo-Step"))
        let third = try XCTUnwrap(server.curl("POST", "/api/v1/todos/1/done").header("Undo-Step"))

        let refused = server.curl("POST", "/api/v1/undo/\(first)")
        XCTAssertEqual(refused.status, 409, refused.text)
        XCTAssertEqual(refused.errorCode, "invalid_state")
        let message = (refused.object["error"] as? [String: Any])?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("todo done 1") && message.contains("step \(third)"), message)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/1").object["title"] as? String, "one, renamed", "nothing changed")

        XCTAssertEqual(server.curl("POST", "/api/v1/undo/\(second)").status, 200)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/2").object["title"] as? String, "two")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/1").object["is_done"] as? Bool, true, "the later step stays")
        XCTAssertEqual(server.curl("POST", "/api/v1/undo/\(second)").status, 404, "a step is undone once")
        XCTAssertEqual(server.curl("POST", "/api/v1/undo/0").status, 404)
        XCTAssertEqual(server.curl("POST", "/api/v1/undo/abc").status, 404)
        XCTAssertEqual(server.curl("POST", "/api/v1/undo/99999999999999999999").status, 404)
        let steps = server.curl("GET", "/api/v1/undo").array.compactMap { $0["id"] as? Int }
        XCTAssertEqual(steps, [Int(third)!, Int(first)!, 2, 1], "newest first, the undone one gone")
    }

    func testEachStepSaysWhichFrontEndMadeItAndTheCommandLineUndoesTheNewest() throws {
        let server = try APITestServer()
        server.onboard()
        created(server, "/api/v1/todos", #"{"title": "by token"}"#)
        let code = try XCTUnwrap(server.server.signInLink().components(separatedBy: "#code=").last)
        let signedIn = server.curl("POST", "/api/v1/session", json: #"{"code": "\#(code)"}"#, authorized: false)
        let csrf = try XCTUnwrap(signedIn.object["csrf_token"] as? String)
        let cookie = String(try XCTUnwrap(signedIn.header("Set-Cookie")).split(separator: ";")[0])
        let fromPage = server.curl("POST", "/api/v1/todos", json: #"{"title": "from the page"}"#, authorized: false,
                                   headers: ["Cookie: \(cookie)", "X-CSRF-Token: \(csrf)"])
        XCTAssertEqual(fromPage.status, 201, fromPage.text)
        let steps = server.curl("GET", "/api/v1/undo").array
        XCTAssertEqual(steps.map { $0["origin"] as? String }, ["web", "api"])
        XCTAssertEqual(steps.first?["description"] as? String, "todo add “from the page”")

        // The command line's undo reverts the newest step, whoever made it, and says whose.
        let workspace = Workspace(home: server.home)
        let undone = try workspace.undoHistory().undo()
        XCTAssertEqual(undone.origin, .web)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").array.map { $0["title"] as? String }, ["by token"])
    }

    func testAToDosETagHoldsWhileATimerCountsTimeSpentOnIt() throws {
        let server = try APITestServer()
        server.onboard()
        let todo = created(server, "/api/v1/todos", #"{"title": "write the report"}"#)
        created(server, "/api/v1/timers", #"{"todo_id": 1}"#)
        let read = server.curl("GET", "/api/v1/todos/1")
        let tag = try XCTUnwrap(read.header("ETag"))
        XCTAssertEqual(tag, "\"\(read.object["rev"] as? Int ?? -1)\"", "the ETag is the revision")
        XCTAssertEqual(tag, "\"\(todo["rev"] as? Int ?? -1)\"", "starting a timer on it is no change of the to-do")
        // Time spent grows between these requests; the to-do does not change.
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/1", headers: ["If-None-Match: \(tag)"]).status, 304)
        let patched = server.curl("PATCH", "/api/v1/todos/1", json: #"{"title": "write the report today"}"#,
                                  headers: ["If-Match: \(tag)"])
        XCTAssertEqual(patched.status, 200, patched.text)
        let newTag = try XCTUnwrap(patched.header("ETag"))
        XCTAssertNotEqual(newTag, tag)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/1/done", headers: ["If-Match: \(tag)"]).status, 412,
                       "an action with a stale If-Match is refused too")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/1/done", headers: ["If-Match: \(newTag)"]).status, 200)
    }

    func testAnItemIsFoundByItsUIDAsByItsID() throws {
        let server = try APITestServer()
        server.onboard()
        let todo = created(server, "/api/v1/todos", #"{"title": "by uid"}"#)
        let memo = created(server, "/api/v1/memos", #"{"text": "by uid"}"#)
        let todoUID = try XCTUnwrap(todo["uid"] as? String)
        let memoUID = try XCTUnwrap(memo["uid"] as? String)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(todoUID)").object["id"] as? Int, 1)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(todoUID.uppercased())").object["id"] as? Int, 1)
        XCTAssertEqual(server.curl("POST", "/api/v1/memos/\(memoUID)/pin").object["is_pinned"] as? Bool, true)
        XCTAssertEqual(server.curl("GET", "/api/v1/memos/\(todoUID)").status, 404, "a to-do's uid names no memo")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/\(UUID().uuidString.lowercased())").status, 404)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/" + String(repeating: "x", count: 36)).status, 404)
    }

    // MARK: - Support

    @discardableResult
    private func created(_ server: APITestServer, _ path: String, _ body: String,
                         file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let result = server.curl("POST", path, json: body)
        XCTAssertEqual(result.status, 201, result.text, file: file, line: line)
        return result.object
    }

    /// The export document's items, without the moment of the export and
    /// the ids used so far (an id is never given again, undone or not).
    private func export(_ server: APITestServer) throws -> String {
        let document = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(document.status, 200)
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: document.body) as? [String: Any])
        object["exported_at"] = nil
        object["last_ids"] = nil
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Every audio file of the library, by name, with its bytes.
    private func libraryAudio(_ server: APITestServer) throws -> [String: Data] {
        let folder = server.home.voiceDirectory
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }
}
