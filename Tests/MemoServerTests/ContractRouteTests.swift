import Foundation
@testable import MemoServer
import TestSupport
import XCTest

/// What Schemathesis' run against the API's document found (issue 29,
/// finding 14), each held here: the status a refusal gets, the search's
/// limit, countdown lengths, audio types, RFC 3339 dues, unknown query
/// items, voice memos without server paths, signing a token out.
final class ContractRouteTests: XCTestCase {
    static let audioFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    private func upload(_ server: APITestServer, _ audio: Data, type: String = "audio/wav",
                        query: String = "?title=hello") -> CurlResult {
        Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: \(type)",
                  "--data-binary", "@-", server.url("/api/v1/voice" + query)], input: audio)
    }

    /// 400 for what is wrong with the request's target; 422 for a body
    /// that is read and holds what cannot be taken, `{}` included.
    func testA400IsTheTargetsFaultA422TheBodys() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "t"}"#).status, 201)
        XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: #"{"text": "m"}"#).status, 201)
        for (method, path, body) in [
            ("PATCH", "/api/v1/todos/1", "{}"), ("PATCH", "/api/v1/memos/1", "{}"), ("POST", "/api/v1/todos", "{}"),
            ("POST", "/api/v1/memos", "{}"), ("PUT", "/api/v1/onboarding/page", "{}"), ("POST", "/api/v1/session", "{}"),
            ("PATCH", "/api/v1/todos/1", #"{"title": null}"#), ("PATCH", "/api/v1/todos/1", #"{"priority": "urgent"}"#),
            ("POST", "/api/v1/todos", #"{"title": "t", "due": "someday"}"#),
            ("POST", "/api/v1/todos", #"{"title": "t", "repeat": "sometimes", "due": "2030-01-01"}"#),
            ("PATCH", "/api/v1/memos/1", #"{"tags": ["a"], "add_tags": ["b"]}"#),
            ("POST", "/api/v1/timers", #"{"duration": "forever"}"#), ("POST", "/api/v1/timers", #"{"todo_id": 0}"#),
            ("PUT", "/api/v1/onboarding/page", #"{"page": 9}"#), ("POST", "/api/v1/todos", "[1]"),
            ("POST", "/api/v1/todos", "{\"title\": "),
        ] {
            let result = server.curl(method, path, json: body)
            XCTAssertEqual(result.status, 422, "\(method) \(path) \(body): \(result.text)")
            XCTAssertEqual(result.errorCode, "bad_input", "\(method) \(path) \(body)")
        }
        for path in ["/api/v1/todos?limit=0", "/api/v1/todos?status=later", "/api/v1/todos?due_before=someday",
                     "/api/v1/memos?pinned=perhaps", "/api/v1/search", "/api/v1/timers?all=2"] {
            let result = server.curl("GET", path)
            XCTAssertEqual(result.status, 400, "\(path): \(result.text)")
            XCTAssertEqual(result.errorCode, "usage", path)
        }
    }

    /// A query item no route reads is refused, as an unknown JSON key is;
    /// after the credentials, so a stranger learns nothing from it.
    func testUnknownQueryItemsAreRefused() throws {
        let server = try APITestServer()
        let health = server.curl("GET", "/api/v1/health?verbose=1", authorized: false)
        XCTAssertEqual(health.status, 400, health.text)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos?limt=5", authorized: false).status, 401)
        server.onboard()
        let misspelt = server.curl("GET", "/api/v1/todos?limt=5")
        XCTAssertEqual(misspelt.status, 400)
        XCTAssertEqual(misspelt.errorCode, "usage")
        XCTAssertTrue(misspelt.text.contains("limt") && misspelt.text.contains("limit"), misspelt.text)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos?title=x", json: #"{"title": "t"}"#).status, 400)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/1/done?force=1").status, 400)
        for path in ["/api/v1/todos?limit=5&status=all&tag=a&tag=-b&sort=newest&lang=ko", "/api/v1/memos?pinned=true",
                     "/api/v1/timers?all=true", "/api/v1/search?q=x&any=1&limit=3", "/api/v1/health?lang=en"] {
            XCTAssertEqual(server.curl("GET", path).status, 200, path)
        }
    }

    /// `limit` is of every hit together (a memo's and a voice memo's were
    /// each limited, so `limit=1` gave 2), and `any=1` is `any=true`.
    func testSearchLimitIsOfAllHitsAndAnyTakesOne() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: #"{"text": "hello there"}"#).status, 201)
        XCTAssertEqual(upload(server, VoiceRouteTests.wav(frames: 8000)).status, 201)
        XCTAssertEqual(server.curl("GET", "/api/v1/search?q=hello").array.count, 2)
        XCTAssertEqual(server.curl("GET", "/api/v1/search?q=hello&limit=1").array.count, 1)
        XCTAssertEqual(server.curl("GET", "/api/v1/search?q=hello%20nowhere").array.count, 0)
        for any in ["1", "true"] {
            XCTAssertEqual(server.curl("GET", "/api/v1/search?q=hello%20nowhere&any=\(any)").array.count, 2, any)
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/search?q=hello%20nowhere&any=0").array.count, 0)
    }

    /// Timers are kept to the millisecond: a shorter countdown would be 0.
    func testCountdownsShorterThanAMillisecondAreRefusedAsZeroIs() throws {
        let server = try APITestServer()
        server.onboard()
        for duration in ["0", "0.0001", "5e-324", "0.0009", "-1", #""0.0001s""#, #""0s""#] {
            let result = server.curl("POST", "/api/v1/timers", json: #"{"duration": \#(duration)}"#)
            XCTAssertEqual(result.status, 422, "\(duration): \(result.text)")
        }
        let shortest = server.curl("POST", "/api/v1/timers", json: #"{"duration": 0.001}"#)
        XCTAssertEqual(shortest.status, 201, shortest.text)
        XCTAssertEqual(shortest.object["duration"] as? Double, 0.001)
    }

    /// `due` and `remind` take RFC 3339 with Z or an offset: the `due_at`
    /// and `remind_at` a client read can be sent back as they are.
    func testDueAndRemindTakeRFC3339() throws {
        let server = try APITestServer()
        server.onboard()
        let zulu = server.curl("POST", "/api/v1/todos",
                               json: #"{"title": "z", "due": "2030-01-02T10:00:00Z", "remind": "2030-01-02T08:30:00Z"}"#)
        XCTAssertEqual(zulu.status, 201, zulu.text)
        XCTAssertEqual(zulu.object["due_at"] as? String, "2030-01-02T10:00:00.000Z")
        XCTAssertEqual(zulu.object["due_has_time"] as? Bool, true)
        XCTAssertEqual(zulu.object["remind_at"] as? String, "2030-01-02T08:30:00.000Z")
        let offset = server.curl("POST", "/api/v1/todos", json: #"{"title": "o", "due": "2030-01-02T10:00:00+09:00"}"#)
        XCTAssertEqual(offset.object["due_at"] as? String, "2030-01-02T01:00:00.000Z", offset.text)

        // A date-only due's due_at (the end of that local day) sent back keeps it a date.
        let dateOnly = server.curl("POST", "/api/v1/todos", json: #"{"title": "d", "due": "2030-03-04"}"#)
        let dueAt = try XCTUnwrap(dateOnly.object["due_at"] as? String)
        let resent = server.curl("PATCH", "/api/v1/todos/3", json: #"{"due": "\#(dueAt)"}"#)
        XCTAssertEqual(resent.status, 200, resent.text)
        XCTAssertEqual(resent.object["due_at"] as? String, dueAt)
        XCTAssertEqual(resent.object["due_local"] as? String, "2030-03-04")
        XCTAssertEqual(resent.object["due_has_time"] as? Bool, false)
        for bad in ["2030-13-02T10:00:00Z", "2030-01-02T25:00:00Z", "2030-01-02T10:00:00+25:00", "10000-01-01T00:00:00Z"] {
            let result = server.curl("POST", "/api/v1/todos", json: #"{"title": "b", "due": "\#(bad)"}"#)
            XCTAssertEqual(result.status, 422, "\(bad): \(result.text)")
        }
    }

    /// A voice memo over HTTP has no `file`: the server's path is no
    /// client's business (the command line's --json keeps it).
    func testVoiceMemosDoNotShowServerPaths() throws {
        let server = try APITestServer()
        server.onboard()
        let created = upload(server, VoiceRouteTests.wav(frames: 8000))
        XCTAssertEqual(created.status, 201, created.text)
        for answer in [created.text, server.curl("GET", "/api/v1/voice/1").text, server.curl("GET", "/api/v1/voice").text,
                       server.curl("PATCH", "/api/v1/voice/1", json: #"{"title": "t"}"#).text] {
            XCTAssertFalse(answer.contains("\"file\""), answer)
            XCTAssertFalse(answer.contains(server.home.path), answer)
        }
    }

    /// WAVE_FORMAT_EXTENSIBLE and CAF are served with audio types, not as
    /// application/octet-stream.
    func testExtensibleWAVAndCAFAreServedWithAudioTypes() throws {
        XCTAssertEqual(MemoRoutes.audioType("WAVEX"), "audio/wav")
        XCTAssertEqual(MemoRoutes.audioType("CAF"), "audio/x-caf")
        let server = try APITestServer()
        server.onboard()
        let caf = try Data(contentsOf: URL(fileURLWithPath: Self.audioFixtures + "/float-mono.caf"))
        let created = upload(server, caf, type: "audio/x-caf")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.object["container"] as? String, "CAF")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio").header("Content-Type"), "audio/x-caf")
    }

    /// Range's 416 and the web app's 404 come in the error envelope.
    func testRangeAndAppRefusalsAreInTheEnvelope() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = VoiceRouteTests.wav(frames: 800)
        XCTAssertEqual(upload(server, audio).status, 201)
        let past = server.curl("GET", "/api/v1/voice/1/audio", headers: ["Range: bytes=\(audio.count)-"])
        XCTAssertEqual(past.status, 416)
        XCTAssertEqual(past.errorCode, "range_not_satisfiable", past.text)
        XCTAssertEqual(past.header("Content-Range"), "bytes */\(audio.count)")
        XCTAssertEqual(past.header("Content-Type"), "application/json")
        let missing = server.curl("GET", "/app/nothing.js", authorized: false)
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.errorCode, "not_found", missing.text)
    }

    /// `DELETE /session` with a token is refused (409), and the token works
    /// on: a 204 that ended nothing told the client it had signed out.
    func testDeletingTheSessionOfATokenIsRefused() throws {
        let server = try APITestServer()
        let refused = server.curl("DELETE", "/api/v1/session")
        XCTAssertEqual(refused.status, 409, refused.text)
        XCTAssertEqual(refused.errorCode, "invalid_state")
        XCTAssertEqual(server.curl("GET", "/api/v1/session").object["kind"] as? String, "token")
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding").status, 200, "the token still works")
    }
}
