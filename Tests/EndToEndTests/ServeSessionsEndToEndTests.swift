import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 2, as reproduced: cookies ignore ports, so a throwaway
/// server on another port of 127.0.0.1 received `memoapp_session`; with it
/// alone, `GET /api/v1/session` gave the CSRF token and a write succeeded.
/// Now the cookie alone gets no CSRF token and makes no change, and the
/// sessions can be listed and ended from the command line.
final class ServeSessionsEndToEndTests: XCTestCase {
    private func signIn(_ memoapp: Memoapp, _ serving: ServingMemoapp) throws -> (cookie: String, csrf: String) {
        let link = memoapp.run("--json", "token", "link", "--url", serving.url).object()["url"] as? String ?? ""
        let code = String(link.split(separator: "=").last ?? "")
        let signedIn = Curl.run(["-H", "Content-Type: application/json", "-d", #"{"code": "\#(code)"}"#,
                                 serving.url + "/api/v1/session"])
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        let cookie = try XCTUnwrap(signedIn.header("Set-Cookie"))
        XCTAssertFalse(cookie.contains("Max-Age"), "the expiry slides on the server: \(cookie)")
        return (String(cookie.split(separator: ";")[0]), try XCTUnwrap(signedIn.object["csrf_token"] as? String))
    }

    func testAStolenCookieAloneGetsNoCSRFTokenAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
        let serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
        let (cookie, csrf) = try signIn(memoapp, serving)
        // What the other port's server has: the cookie, nothing else.
        let stolen = ["-H", "Cookie: \(cookie)"]
        let asked = Curl.run(stolen + [serving.url + "/api/v1/session"])
        XCTAssertEqual(asked.status, 200)
        XCTAssertTrue(asked.object["csrf_token"] is NSNull, asked.text)
        XCTAssertFalse(asked.text.contains(csrf))
        let write = ["-H", "Content-Type: application/json", "-d", #"{"title": "planted"}"#]
        let refused = Curl.run(stolen + write + [serving.url + "/api/v1/todos"])
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertEqual(refused.errorCode, "csrf")
        for guess in ["", String(repeating: "0", count: 64), cookie.split(separator: "=").last.map(String.init) ?? ""] {
            XCTAssertEqual(Curl.run(stolen + ["-H", "X-CSRF-Token: \(guess)"] + write + [serving.url + "/api/v1/todos"]).status,
                           403, guess)
        }
        XCTAssertEqual(memoapp.run("--json", "todo", "list").array().count, 0, "nothing was planted")
        // The page, which kept the token, still writes.
        XCTAssertEqual(Curl.run(stolen + ["-H", "X-CSRF-Token: \(csrf)"] + write + [serving.url + "/api/v1/todos"]).status, 201)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    func testTokenSessionsListsAndEndSessionEndsWebSessions() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
        let serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(memoapp.run("--json", "token", "sessions").array().count, 0)
        XCTAssertTrue(memoapp.run("token", "sessions").stdout.contains("No web sessions"))
        let (first, _) = try signIn(memoapp, serving)
        let (second, _) = try signIn(memoapp, serving)
        let listed = memoapp.run("--json", "token", "sessions").array()
        XCTAssertEqual(listed.count, 2)
        for session in listed {
            XCTAssertEqual(Set(session.keys), ["id", "created_at", "expires_at"])
            XCTAssertEqual((session["id"] as? String)?.count, 12)
        }
        let firstID = try XCTUnwrap(Curl.run(["-H", "Cookie: \(first)", serving.url + "/api/v1/session"]).object["id"] as? String)
        XCTAssertTrue(memoapp.run("token", "sessions").stdout.contains(firstID))
        XCTAssertFalse(memoapp.run("token", "sessions").stdout.contains(first.split(separator: "=")[1]), "never a secret")

        XCTAssertEqual(memoapp.run("--json", "token", "end-session", firstID).object()["ended"] as? Int, 1)
        XCTAssertEqual(Curl.run(["-H", "Cookie: \(first)", serving.url + "/api/v1/todos"]).status, 401,
                       "the running server refuses it at once")
        XCTAssertEqual(Curl.run(["-H", "Cookie: \(second)", serving.url + "/api/v1/todos"]).status, 200)
        XCTAssertEqual(memoapp.run("token", "end-session", firstID).status, 4, "already ended")
        XCTAssertEqual(memoapp.run("token", "end-session", "--all").status, 0)
        XCTAssertEqual(Curl.run(["-H", "Cookie: \(second)", serving.url + "/api/v1/todos"]).status, 401)
        XCTAssertEqual(memoapp.run("--json", "token", "sessions").array().count, 0)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    func testEndSessionRefusesWhatIsNoSessionID() {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        for arguments in [["token", "end-session"], ["token", "end-session", "abcdefabcdef", "--all"],
                          ["token", "end-session", "xyz"], ["token", "end-session", "abcdefabcdef0"],
                          ["token", "end-session", "abc\u{1B}[2Jdefabc"], ["token", "sessions", "extra"]] {
            let result = memoapp.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("\u{1B}[2J"), "no raw control characters")
        }
        XCTAssertEqual(memoapp.run("--json", "token", "end-session", "abcdefabcdef").errorCode, "not_found")
        XCTAssertEqual(memoapp.run("--json", "token", "end-session", "--all").object()["ended"] as? Int, 0)
    }

    func testTheSessionCommandsAnswerHelpInBothLanguages() {
        let memoapp = Memoapp(home: TemporaryDirectory().appending("home"))
        let english = memoapp.run("token", "end-session", "--help")
        XCTAssertEqual(english.status, 0)
        XCTAssertTrue(english.stdout.contains("--all"), english.stdout)
        let korean = memoapp.run("--lang", "ko", "token", "sessions", "--help")
        XCTAssertEqual(korean.status, 0)
        XCTAssertTrue(korean.stdout.contains("로그인 세션"), korean.stdout)
        XCTAssertTrue(memoapp.run("token", "--help").stdout.contains("end-session"))
    }
}

private extension CurlResult {
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var errorCode: String? {
        (object["error"] as? [String: Any])?["code"] as? String
    }
}
