import Foundation
import TestSupport
import XCTest

/// `memoapp undo` beside the HTTP API on one data home: one history, the
/// API's changes steps in it like the terminal's, undone newest first.
final class UndoAcrossFrontEndsEndToEndTests: XCTestCase {
    func testAnEditMadeOverHTTPIsAStepOfTheSameHistoryAndIsUndoneFirst() throws {
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

        let steps = memoapp.run("--json", "undo", "--list").array()
        XCTAssertEqual(steps.map { $0["origin"] as? String }, ["api", "cli", "cli"])
        // The newest step is the phone's, whoever undoes: the terminal's
        // undo reverts it (and says whose it was), not its own older edit.
        XCTAssertEqual(memoapp.run("undo").stdout, "Undid: todo edit 1 (API)\n")
        XCTAssertEqual(memoapp.run("--json", "todo", "show", "1").object()["title"] as? String, "terminal title")
        XCTAssertEqual(memoapp.run("undo").stdout, "Undid: todo edit 1 --title 'terminal title'\n")
        XCTAssertEqual(memoapp.run("--json", "todo", "show", "1").object()["title"] as? String, "회의 준비")
    }
}
