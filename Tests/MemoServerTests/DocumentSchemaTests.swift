import Foundation
import MemoCore
import MemoKit
import TestSupport
import XCTest

/// The schemas of the API's document (`DocumentSchema`, beside the
/// encoders) held to what the server really answers: each answer below,
/// good and bad, is checked against the schema the document gives for its
/// route and status, so a member an encoder gains, loses or retypes fails
/// here (and a status the document does not list too).
final class DocumentSchemaTests: XCTestCase {
    private var server: APITestServer!
    private var document: JSON = .null
    private var check: SchemaCheck!

    override func setUpWithError() throws {
        server = try APITestServer()
        document = try JSON.parse(server.curl("GET", "/api/v1/openapi.json", authorized: false).body)
        check = SchemaCheck(document: document)
    }

    /// `method path` (of route `pattern`) answered as the document says:
    /// a listed status, and a body that fits its schema.
    @discardableResult
    private func fits(_ method: String, _ path: String, _ pattern: String? = nil, json: String? = nil,
                      authorized: Bool = true, headers: [String] = [], file: StaticString = #filePath,
                      line: UInt = #line) -> CurlResult {
        let result = server.curl(method, path, json: json, authorized: authorized, headers: headers)
        checkFits(result, method, pattern ?? path.split(separator: "?")[0].description, file: file, line: line)
        return result
    }

    private func checkFits(_ result: CurlResult, _ method: String, _ pattern: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        let answer = document["paths"]?[pattern]?[method.lowercased()]?["responses"]?[String(result.status)]
        guard let answer else {
            return XCTFail("\(method) \(pattern) answered \(result.status), which the document does not list: \(result.text)",
                           file: file, line: line)
        }
        guard let schema = answer["content"]?["application/json"]?["schema"] else { return }
        do {
            let body = try JSON.parse(result.body)
            XCTAssertEqual(check.problems(body, schema), [], "\(method) \(pattern) \(result.status)", file: file, line: line)
        } catch {
            XCTFail("\(method) \(pattern) \(result.status): not JSON: \(result.text)", file: file, line: line)
        }
    }

    func testEveryItemDocumentFitsItsSchema() throws {
        fits("GET", "/api/v1/health")
        fits("GET", "/api/v1/todos")  // 403 before the onboarding, in the envelope
        fits("GET", "/api/v1/onboarding")
        fits("POST", "/api/v1/onboarding/skip")
        fits("POST", "/api/v1/todos", json: #"{"title": "plain"}"#)
        fits("POST", "/api/v1/todos", json: #"{"title": "full", "note": "n", "priority": "high", "tags": ["a"], "#
             + #""due": "2030-01-02 10:00", "remind": "2030-01-01", "repeat": "weekly"}"#)
        fits("GET", "/api/v1/todos?status=all")
        fits("GET", "/api/v1/dates/parse?text=tomorrow%2018:00")
        fits("GET", "/api/v1/dates/parse?text=2019-01-01")
        fits("GET", "/api/v1/dates/parse?text=someday")
        fits("GET", "/api/v1/todos/2", "/api/v1/todos/{id}")
        fits("PATCH", "/api/v1/todos/1", "/api/v1/todos/{id}", json: #"{"note": null, "add_tags": ["b"]}"#)
        fits("POST", "/api/v1/todos/1/done", "/api/v1/todos/{id}/done")
        fits("POST", "/api/v1/memos", json: #"{"text": "hello world", "title": "greeting", "pinned": true}"#)
        fits("POST", "/api/v1/memos", json: #"{"text": "untitled"}"#)
        fits("GET", "/api/v1/memos")
        fits("GET", "/api/v1/memos/2", "/api/v1/memos/{id}")
        fits("POST", "/api/v1/timers", json: #"{}"#)
        fits("POST", "/api/v1/timers/1/lap", "/api/v1/timers/{id}/lap")
        fits("POST", "/api/v1/timers", json: #"{"duration": 60, "label": "tea", "todo_id": 2}"#)
        fits("GET", "/api/v1/timers")
        fits("GET", "/api/v1/timers/2", "/api/v1/timers/{id}")
        let audio = VoiceRouteTests.wav(frames: 8000)
        let upload = Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                               "--data-binary", "@-", server.url("/api/v1/voice?title=hello")], input: audio)
        checkFits(upload, "POST", "/api/v1/voice")
        fits("GET", "/api/v1/voice")
        fits("GET", "/api/v1/voice/1", "/api/v1/voice/{id}")
        fits("GET", "/api/v1/search?q=hello")
        fits("GET", "/api/v1/search?q=full")
        fits("GET", "/api/v1/undo")
        fits("POST", "/api/v1/undo")
        fits("DELETE", "/api/v1/memos/1", "/api/v1/memos/{id}")
        fits("DELETE", "/api/v1/voice/1", "/api/v1/voice/{id}")
        fits("GET", "/api/v1/session")
    }

    func testTokenRoutesFitTheirSchemas() throws {
        let connection = try MemoDatabase.open(in: server.home)
        let now = SystemWallClock().now()
        let code = try DeviceCodes(connection: connection).create(tokenName: "phone", tokenLifetime: 3600, at: now).code
        fits("POST", "/api/v1/device-codes/exchange", json: #"{"code": "\#(code)"}"#, authorized: false)
        fits("POST", "/api/v1/device-codes/exchange", json: #"{"code": "\#(code)"}"#, authorized: false)  // 401: used
        fits("POST", "/api/v1/device-codes/exchange", json: #"{"kode": "x"}"#, authorized: false)
        fits("GET", "/api/v1/tokens")  // 403: a token manages no tokens
        let signInCode = try WebSessions(connection: connection).createCode(at: now).code
        let signedIn = server.curl("POST", "/api/v1/session", json: #"{"code": "\#(signInCode)"}"#, authorized: false)
        let cookie = try XCTUnwrap(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let page = ["Cookie: \(cookie)", "X-CSRF-Token: \(signedIn.object["csrf_token"] as? String ?? "")"]
        fits("GET", "/api/v1/tokens", authorized: false, headers: page)
        fits("POST", "/api/v1/device-codes", json: #"{"name": "tablet", "expires_in": "30d"}"#, authorized: false, headers: page)
        fits("POST", "/api/v1/device-codes", json: #"{"name": "forever"}"#, authorized: false, headers: page)
        fits("POST", "/api/v1/device-codes", json: #"{"name": "tablet"}"#, authorized: false, headers: page)  // 409
        fits("POST", "/api/v1/device-codes", json: #"{"name": "x", "expires_in": 1}"#, authorized: false, headers: page)
        fits("DELETE", "/api/v1/tokens/phone", "/api/v1/tokens/{name}", authorized: false, headers: page)
        fits("DELETE", "/api/v1/tokens/phone", "/api/v1/tokens/{name}", authorized: false, headers: page)  // 404
    }

    func testRefusalsFitTheErrorSchema() throws {
        server.onboard()
        fits("GET", "/api/v1/todos/99", "/api/v1/todos/{id}")
        fits("PATCH", "/api/v1/todos/1", "/api/v1/todos/{id}", json: #"{}"#)
        fits("POST", "/api/v1/todos", json: #"{"title": "x", "colour": "red"}"#)
        fits("GET", "/api/v1/todos?limit=0")
        fits("GET", "/api/v1/todos?limt=5")
        fits("POST", "/api/v1/undo")
        fits("DELETE", "/api/v1/session")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos", authorized: false).status, 401)
        checkFits(server.curl("GET", "/api/v1/todos", authorized: false), "GET", "/api/v1/todos")
    }
}
