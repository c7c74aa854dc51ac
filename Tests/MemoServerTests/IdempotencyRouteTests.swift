import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 11: `Idempotency-Key` on every POST (an upload and each
/// action too, not only the JSON creations), scoped by who the credential
/// is rather than by the text of its header. Reproduced as reported: a
/// retried lap recorded 3 laps, a retried upload made 2 memos, and
/// `bearer` instead of `Bearer` ran the request again.
final class IdempotencyRouteTests: XCTestCase {
    func testARetriedLapIsRecordedOnceAndAnswersTheSameHeaders() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: "{}").status, 201)
        let key = "Idempotency-Key: lap-1"
        let first = server.curl("POST", "/api/v1/timers/1/lap", headers: [key])
        XCTAssertEqual(first.status, 200, first.text)
        let again = server.curl("POST", "/api/v1/timers/1/lap", headers: [key])
        let third = server.curl("POST", "/api/v1/timers/1/lap", headers: [key])
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(third.body, first.body, "a retry gets the first answer")
        // The replay carries what the first answer carried: the undo step
        // that reverts it and the item's version.
        XCTAssertNotNil(first.header("Undo-Step"))
        XCTAssertEqual(again.header("Undo-Step"), first.header("Undo-Step"))
        XCTAssertNotNil(first.header("ETag"))
        XCTAssertEqual(again.header("ETag"), first.header("ETag"))
        let timer = server.curl("GET", "/api/v1/timers/1").object
        XCTAssertEqual((timer["laps"] as? [Any])?.count, 1, "\(timer)")
        // Another key is another lap.
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/1/lap", headers: ["Idempotency-Key: lap-2"]).status, 200)
        XCTAssertEqual((server.curl("GET", "/api/v1/timers/1").object["laps"] as? [Any])?.count, 2)
    }

    func testEveryBodilessActionHonoursTheKey() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "a"}"#).status, 201)
        XCTAssertEqual(server.curl("POST", "/api/v1/memos", json: #"{"text": "m"}"#).status, 201)
        // done, then undo of that step: the same key on `/undo` twice must
        // not revert two steps.
        XCTAssertEqual(server.curl("POST", "/api/v1/todos/1/done", headers: ["Idempotency-Key: d"]).status, 200)
        XCTAssertEqual(server.curl("POST", "/api/v1/memos/1/pin", headers: ["Idempotency-Key: p"]).status, 200)
        let undone = server.curl("POST", "/api/v1/undo", headers: ["Idempotency-Key: u"])
        XCTAssertEqual(undone.status, 200, undone.text)
        let retried = server.curl("POST", "/api/v1/undo", headers: ["Idempotency-Key: u"])
        XCTAssertEqual(retried.status, 200)
        XCTAssertEqual(retried.body, undone.body)
        // Only the pin was undone; the to-do is still done.
        XCTAssertEqual(server.curl("GET", "/api/v1/memos/1").object["is_pinned"] as? Bool, false)
        XCTAssertEqual(server.curl("GET", "/api/v1/todos/1").object["is_done"] as? Bool, true)
    }

    func testTheScopeIsTheCredentialNotTheHeadersSpelling() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: "{}").status, 201)
        let key = "Idempotency-Key: same"
        for spelling in ["Bearer \(server.token)", "bearer \(server.token)", "BEARER   \(server.token)"] {
            let answer = server.curl("POST", "/api/v1/timers/1/lap", authorized: false,
                                     headers: ["Authorization: \(spelling)", key])
            XCTAssertEqual(answer.status, 200, "\(spelling): \(answer.text)")
        }
        XCTAssertEqual((server.curl("GET", "/api/v1/timers/1").object["laps"] as? [Any])?.count, 1)
    }

    func testAnotherCredentialsKeyIsItsOwn() throws {
        let server = try APITestServer()
        server.onboard()
        let other = try XCTUnwrap(Memoapp(home: server.home.path).run("token", "create", "other", "--json").object()["token"] as? String)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: "{}").status, 201)
        let key = "Idempotency-Key: shared"
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/1/lap", headers: [key]).status, 200)
        XCTAssertEqual(server.curl("POST", "/api/v1/timers/1/lap", authorized: false,
                                   headers: ["Authorization: Bearer \(other)", key]).status, 200)
        XCTAssertEqual((server.curl("GET", "/api/v1/timers/1").object["laps"] as? [Any])?.count, 2,
                       "one client's key never answers another's request")
    }

    func testARetriedUploadMakesOneMemoAndAnotherBodyIsRefused() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = VoiceRouteTests.wav(frames: 8000)
        func upload(_ body: Data, key: String) -> CurlResult {
            Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                      "-H", "Idempotency-Key: \(key)", "--data-binary", "@-",
                      server.url("/api/v1/voice?title=Tone&allow_duplicate=true")], input: body)
        }
        let first = upload(audio, key: "v1")
        XCTAssertEqual(first.status, 201, first.text)
        let again = upload(audio, key: "v1")
        XCTAssertEqual(again.status, 201)
        XCTAssertEqual(again.body, first.body)
        XCTAssertEqual(again.header("Location"), first.header("Location"))
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 1)
        // The same key with other audio: refused, and nothing stored.
        let other = upload(VoiceRouteTests.wav(frames: 4000), key: "v1")
        XCTAssertEqual(other.status, 422, other.text)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 1)
        // No spool is left behind by the replay or the refusal.
        let files = try FileManager.default.contentsOfDirectory(atPath: server.home.voiceDirectory)
            .filter { !$0.hasPrefix(".") }
        XCTAssertEqual(files.count, 1, "\(files)")
        // allow_duplicate: a new key is a second memo of the same audio.
        XCTAssertEqual(upload(audio, key: "v2").status, 201)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 2)
    }

    func testAMalformedKeyIsRefusedOnAnActionAndChangesNothing() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/timers", json: "{}").status, 201)
        let long = String(repeating: "k", count: 256)
        let refused = server.curl("POST", "/api/v1/timers/1/lap", headers: ["Idempotency-Key: \(long)"])
        XCTAssertEqual(refused.status, 400, refused.text)
        XCTAssertEqual((server.curl("GET", "/api/v1/timers/1").object["laps"] as? [Any])?.count ?? 0, 0)
    }
}
