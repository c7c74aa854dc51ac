import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 15, as it was asked for: a phone app signs in without
/// a terminal. A person signed in to the page (or at `memoapp token code`)
/// makes a short code, types it into the app, and the app exchanges it once
/// for a token of its own; the person lists and revokes tokens over the
/// API; a token may expire, and an expired one is refused as unauthorized.
/// Before this, the only way to a token was `memoapp token create` in a
/// terminal, and 64 hex digits carried to the phone by hand.
final class ServeDeviceCodesEndToEndTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var memoapp: Memoapp!
    private var serving: ServingMemoapp!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
        serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
    }

    override func tearDown() {
        if let serving { XCTAssertEqual(serving.stop(signal: SIGTERM), 0) }
        serving = nil
    }

    /// The web page's session: its cookie and the headers a change needs.
    private func signIn() throws -> [String] {
        let link = memoapp.run("--json", "token", "link", "--url", serving.url).object()["url"] as? String ?? ""
        let code = String(link.split(separator: "=").last ?? "")
        let signedIn = post("/api/v1/session", #"{"code": "\#(code)"}"#)
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        let cookie = try XCTUnwrap(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let csrf = try XCTUnwrap(signedIn.jsonObject["csrf_token"] as? String)
        return ["-H", "Cookie: \(cookie)", "-H", "X-CSRF-Token: \(csrf)"]
    }

    private func post(_ path: String, _ json: String, _ headers: [String] = []) -> CurlResult {
        Curl.run(headers + ["-H", "Content-Type: application/json", "--data-binary", "@-", serving.url + path],
                 input: Data(json.utf8))
    }

    private func request(_ method: String, _ path: String, _ headers: [String] = []) -> CurlResult {
        Curl.run(headers + ["-X", method, serving.url + path])
    }

    func testAPhoneSignsInWithACodeFromTheSignedInPageOnceAndIsRevokedOverTheAPI() throws {
        let page = try signIn()
        let made = post("/api/v1/device-codes", #"{"name": "pixel", "expires_in": "30d"}"#, page)
        XCTAssertEqual(made.status, 201, made.text)
        let code = try XCTUnwrap(made.jsonObject["code"] as? String)
        XCTAssertEqual(code.count, 9, code)
        XCTAssertEqual(made.jsonObject["name"] as? String, "pixel")
        XCTAssertEqual(made.jsonObject["token_lifetime"] as? Double, 30 * 86400)

        // The phone: no cookie, no token, only the code as the person typed it.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: "")
        let exchanged = post("/api/v1/device-codes/exchange", #"{"code": "\#(typed)"}"#)
        XCTAssertEqual(exchanged.status, 201, exchanged.text)
        let token = try XCTUnwrap(exchanged.jsonObject["token"] as? String)
        XCTAssertEqual(token.count, 64)
        let created = try XCTUnwrap(documentTime(exchanged.jsonObject["created_at"] as? String ?? ""))
        let expires = try XCTUnwrap(documentTime(exchanged.jsonObject["expires_at"] as? String ?? ""))
        XCTAssertEqual(expires.timeIntervalSince(created), 30 * 86400, accuracy: 0.002)
        let phone = ["-H", "Authorization: Bearer \(token)"]
        XCTAssertEqual(request("GET", "/api/v1/todos", phone).status, 200)
        let again = post("/api/v1/device-codes/exchange", #"{"code": "\#(code)"}"#)
        XCTAssertEqual(again.status, 401, "a code works once: \(again.text)")
        XCTAssertEqual(again.errorCode, "unauthorized")

        // The person lists the tokens (never a token) and revokes the phone's.
        let listed = request("GET", "/api/v1/tokens", page)
        XCTAssertEqual(listed.status, 200, listed.text)
        XCTAssertEqual(listed.jsonArray.map { $0["name"] as? String }, ["pixel"])
        XCTAssertEqual(Set(listed.jsonArray.first?.keys.map { $0 } ?? []), ["name", "created_at", "last_used_at", "expires_at"])
        XCTAssertFalse(listed.text.contains(token))
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().map { $0["name"] as? String }, ["pixel"],
                       "the command line sees the same tokens")
        let revoked = request("DELETE", "/api/v1/tokens/pixel", page)
        XCTAssertEqual(revoked.status, 200, revoked.text)
        XCTAssertEqual(revoked.jsonObject["name"] as? String, "pixel")
        XCTAssertEqual(request("GET", "/api/v1/todos", phone).status, 401, "refused at once")
        XCTAssertEqual(request("DELETE", "/api/v1/tokens/pixel", page).status, 404)
        // Names the code routes' words could be: plain tokens, under /tokens.
        for name in ["codes", "exchange"] {
            XCTAssertEqual(memoapp.run("token", "create", name).status, 0)
            XCTAssertEqual(request("DELETE", "/api/v1/tokens/\(name)", page).status, 200, name)
        }
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().count, 0)
        XCTAssertFalse(serving.standardError.contains(code) || serving.standardError.contains(typed),
                       "the log shows a code")
    }

    func testTokenCodeOnTheCommandLineMakesTheSameCode() throws {
        let made = memoapp.run("--json", "token", "code", "ipad", "--expires", "2w")
        XCTAssertEqual(made.status, 0, made.stderr)
        let code = try XCTUnwrap(made.object()["code"] as? String)
        XCTAssertEqual(Set(made.object().keys), ["code", "name", "expires_at", "token_lifetime"])
        XCTAssertTrue(memoapp.run("token", "code", "other").stdout.contains("10 minutes"))
        let exchanged = post("/api/v1/device-codes/exchange", #"{"code": " \#(code) "}"#)
        XCTAssertEqual(exchanged.status, 201, exchanged.text)
        XCTAssertEqual(exchanged.jsonObject["name"] as? String, "ipad")
        let listed = memoapp.run("--json", "token", "list").array().first { $0["name"] as? String == "ipad" }
        let created = try XCTUnwrap(documentTime(listed?["created_at"] as? String ?? ""))
        let expires = try XCTUnwrap(documentTime(listed?["expires_at"] as? String ?? ""))
        XCTAssertEqual(expires.timeIntervalSince(created), 14 * 86400, accuracy: 0.002)
        XCTAssertTrue(memoapp.run("token", "list").stdout.contains("EXPIRES"))
    }

    func testTenWrongCodesWithdrawTheWaitingCode() throws {
        let code = memoapp.run("--json", "token", "code", "phone").object()["code"] as? String ?? ""
        // A guesser's tries (well-formed or not), whoever sends them.
        for attempt in 0..<10 {
            let guess = attempt % 2 == 0 ? "AAAA-AAA\(attempt)" : "guess \(attempt)"
            XCTAssertEqual(post("/api/v1/device-codes/exchange", #"{"code": "\#(guess)"}"#).status, 401, guess)
        }
        let late = post("/api/v1/device-codes/exchange", #"{"code": "\#(code)"}"#)
        XCTAssertEqual(late.status, 401, "withdrawn after ten wrong tries: \(late.text)")
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().count, 0)
        // A new code works.
        let fresh = memoapp.run("--json", "token", "code", "phone").object()["code"] as? String ?? ""
        XCTAssertEqual(post("/api/v1/device-codes/exchange", #"{"code": "\#(fresh)"}"#).status, 201)
    }

    func testOnlyASignedInPersonManagesTokens() throws {
        let token = memoapp.run("--json", "token", "create", "laptop").object()["token"] as? String ?? ""
        let bearer = ["-H", "Authorization: Bearer \(token)"]
        for (method, path) in [("GET", "/api/v1/tokens"), ("DELETE", "/api/v1/tokens/laptop")] {
            let refused = request(method, path, bearer)
            XCTAssertEqual(refused.status, 403, "\(method) \(path): \(refused.text)")
            XCTAssertEqual(refused.errorCode, "session_required")
            XCTAssertEqual(request(method, path).status, 401, "\(method) \(path) without credentials")
        }
        XCTAssertEqual(post("/api/v1/device-codes", #"{"name": "thief"}"#, bearer).errorCode, "session_required",
                       "a token cannot make itself a successor")
        XCTAssertEqual(post("/api/v1/device-codes", #"{"name": "thief"}"#).status, 401)
        // The cookie alone (another port's server has it) changes nothing.
        let page = try signIn()
        let cookieOnly = Array(page.prefix(2))
        XCTAssertEqual(post("/api/v1/device-codes", #"{"name": "thief"}"#, cookieOnly).errorCode, "csrf")
        XCTAssertEqual(request("DELETE", "/api/v1/tokens/laptop", cookieOnly).errorCode, "csrf")
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().map { $0["name"] as? String }, ["laptop"])
        XCTAssertEqual(request("GET", "/api/v1/todos", bearer).status, 200)
    }

    func testBadInputIsRefusedAndChangesNothing() throws {
        let page = try signIn()
        _ = memoapp.run("token", "create", "laptop")
        let bodies: [(String, Int)] = [
            ("{}", 422), (#"{"name": "bad name"}"#, 422), (#"{"name": ""}"#, 422), (#"{"name": 5}"#, 422),
            (#"{"name": "\#(String(repeating: "x", count: 65))"}"#, 422), (#"{"name": "p", "expires_in": "30"}"#, 422),
            (#"{"name": "p", "expires_in": 0}"#, 422), (#"{"name": "p", "expires_in": -60}"#, 422),
            (#"{"name": "p", "expires_in": 1e300}"#, 422), (#"{"name": "p", "expires_in": "10y"}"#, 422),
            (#"{"name": "p", "expires_in": true}"#, 422), (#"{"name": "p", "colour": "red"}"#, 422),
            (#"{"name": "p\u001b[2J"}"#, 422), ("not json", 422), ("[]", 422),
            (#"{"name": "laptop"}"#, 409),
        ]
        for (body, status) in bodies {
            let answer = post("/api/v1/device-codes", body, page)
            XCTAssertEqual(answer.status, status, "\(body): \(answer.text)")
            XCTAssertFalse(answer.text.contains("\u{1B}"), "no raw control characters")
        }
        XCTAssertEqual(post("/api/v1/device-codes", #"{"name": "phone", "expires_in": 3600}"#, page).status, 201)
        XCTAssertEqual(post("/api/v1/device-codes", #"{"name": "phone"}"#, page).status, 409, "a code waits for that name")
        let exchanges: [(String, Int)] = [
            ("{}", 422), (#"{"code": 5}"#, 422), (#"{"code": null}"#, 422), ("not json", 422),
            (#"{"code": "x", "name": "y"}"#, 422), (#"{"code": ""}"#, 401), (#"{"code": "\#(String(repeating: "A", count: 5000))"}"#, 401),
            (#"{"code": "ＡＡＡＡ-ＡＡＡＡ"}"#, 401), (#"{"code": "AAAA\u0000AAAA"}"#, 401),
        ]
        for (body, status) in exchanges {
            XCTAssertEqual(post("/api/v1/device-codes/exchange", body).status, status, body)
        }
        for (path, status) in [("/api/v1/tokens/nobody", 404), ("/api/v1/tokens/a%20b", 404),
                               ("/api/v1/tokens/" + String(repeating: "x", count: 65), 404),
                               ("/api/v1/tokens/%1B%5B2J", 400)] {  // the HTTP layer's refusal of a control character
            let answer = request("DELETE", path, page)
            XCTAssertEqual(answer.status, status, "\(path): \(answer.text)")
            XCTAssertFalse(answer.text.contains("\u{1B}"))
        }
        XCTAssertEqual(request("GET", "/api/v1/tokens?all=1", page).status, 400, "an unknown query item")
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().map { $0["name"] as? String }, ["laptop"])

        for arguments in [["token", "code"], ["token", "code", "bad name"], ["token", "code", "p", "--expires", "30"],
                          ["token", "code", "p", "--expires", "0d"], ["token", "code", "p", "--expires", "3651d"],
                          ["token", "code", "p", "--expires", ""], ["token", "create", "p", "--expires", "-1d"],
                          ["token", "create", "p", "--expires", "1\u{1B}[2Jd"], ["token", "code", "p", "q"]] {
            let result = memoapp.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("\u{1B}[2J"), "no raw control characters")
        }
        XCTAssertEqual(memoapp.run("--json", "token", "code", "laptop").errorCode, "duplicate")
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().count, 1, "nothing was made")
    }

    func testAnExpiredTokenIsRefusedAsUnauthorizedAndListedAsExpired() throws {
        let made = memoapp.run("--json", "token", "create", "month", "--expires", "30d").object()
        let token = made["token"] as? String ?? ""
        XCTAssertNotNil(documentTime(made["expires_at"] as? String ?? ""))
        let bearer = ["-H", "Authorization: Bearer \(token)"]
        XCTAssertEqual(request("GET", "/api/v1/todos", bearer).status, 200)
        // Thirty days pass: the stored expiry is moved to the moment the
        // token was made, which is past whatever today is.
        _ = sqlite3(memoapp.databasePath, "UPDATE api_tokens SET expires_at = created_at WHERE name = 'month'")
        let refused = request("GET", "/api/v1/todos", bearer)
        XCTAssertEqual(refused.status, 401, refused.text)
        XCTAssertEqual(refused.errorCode, "unauthorized")
        XCTAssertTrue(refused.text.contains("expired"), refused.text)
        XCTAssertTrue(memoapp.run("token", "list").stdout.contains("expired"))
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().count, 1, "listed until revoked")
        XCTAssertEqual(memoapp.run("token", "revoke", "month").status, 0)
    }

    func testTheTokenCommandsAnswerHelpInBothLanguages() {
        let english = memoapp.run("token", "code", "--help")
        XCTAssertEqual(english.status, 0)
        XCTAssertTrue(english.stdout.contains("--expires"), english.stdout)
        XCTAssertTrue(memoapp.run("token", "create", "--help").stdout.contains("--expires"))
        let korean = memoapp.run("--lang", "ko", "token", "code", "--help")
        XCTAssertEqual(korean.status, 0)
        XCTAssertTrue(korean.stdout.contains("휴대폰"), korean.stdout)
    }
}

private extension CurlResult {
    var jsonObject: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var jsonArray: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? []
    }

    var errorCode: String? {
        (jsonObject["error"] as? [String: Any])?["code"] as? String
    }
}
