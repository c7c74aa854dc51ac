import Foundation
import TestSupport
import XCTest

/// `memoapp undo` beside the HTTP API on one data home: a change the API made
/// after a terminal command is not overwritten by undoing that command.
final class UndoAcrossFrontEndsEndToEndTests: XCTestCase {
    func testUndoRefusesToOverwriteAnEditMadeOverHTTPSince() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
        let token = memoapp.run("--json", "token", "create", "phone").object()["token"] as? String ?? ""
        XCTAssertEqual(memoapp.run("todo", "add", "회의 준비").status, 0)
        XCTAssertEqual(memoapp.run("todo", "edit", "1", "--title", "terminal title").status, 0)
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        let patched = Curl.run(["-X", "PATCH", "-H", "Authorization: Bearer \(token)",
                                "-H", "Content-Type: application/json", "-d", #"{"title":"phone title"}"#,
                                serving.url + "/api/v1/todos/1"])
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)

        let undone = memoapp.run("--json", "undo")
        XCTAssertEqual(undone.errorCode, "invalid_state", undone.stdout + undone.stderr)
        XCTAssertEqual(memoapp.run("undo").status, 5, "invalid_state's exit code")
        let human = memoapp.run("undo").stderr
        XCTAssertTrue(human.contains("todo edit 1 --title 'terminal title'") && human.contains("changed since"), human)
        XCTAssertEqual(memoapp.run("--json", "todo", "show", "1").object()["title"] as? String, "phone title",
                       "the phone's edit stays")
        XCTAssertEqual(memoapp.run("--json", "undo", "--list").array().count, 2, "both steps still there")
    }
}
