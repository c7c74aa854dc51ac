import Foundation
import TestSupport
import XCTest

/// The command line and the HTTP API translate into the same changes, which
/// MemoKit applies through one door: one script of every kind of change,
/// run once through each on two fresh homes, leaves the same export (but
/// for the moments things happened and the uids each home made), and the
/// same undo history, each step saying which front end made it.
final class OneDoorEndToEndTests: XCTestCase {
    /// One change as a command line and as a request (method, path, JSON body).
    struct Step {
        let command: [String]
        let method: String
        let path: String
        let body: String?
    }

    static let tone = RevisionEndToEndTests.fixture("audio/tone-mono-16k.wav")

    static let script: [Step] = [
        Step(command: ["todo", "add", "Buy milk", "--due", "2030-01-15", "--priority", "high", "--tag", "home",
                       "--repeat", "weekly", "--remind", "2030-01-15 08:00"],
             method: "POST", path: "/todos",
             body: #"{"title": "Buy milk", "due": "2030-01-15", "priority": "high", "tags": ["home"], "repeat": "weekly", "remind": "2030-01-15 08:00"}"#),
        Step(command: ["todo", "add", "second"], method: "POST", path: "/todos", body: #"{"title": "second"}"#),
        Step(command: ["todo", "edit", "1", "--title", "Buy oat milk", "--tag", "errands", "--untag", "home"],
             method: "PATCH", path: "/todos/1",
             body: #"{"title": "Buy oat milk", "add_tags": ["errands"], "remove_tags": ["home"]}"#),
        Step(command: ["todo", "done", "2"], method: "POST", path: "/todos/2/done", body: nil),
        Step(command: ["todo", "undo", "2"], method: "POST", path: "/todos/2/undo", body: nil),
        Step(command: ["todo", "done", "1"], method: "POST", path: "/todos/1/done", body: nil),
        Step(command: ["todo", "rm", "2"], method: "DELETE", path: "/todos/2", body: nil),
        Step(command: ["memo", "add", "회의록: 초안", "--tag", "work"], method: "POST", path: "/memos",
             body: #"{"text": "회의록: 초안", "tags": ["work"]}"#),
        Step(command: ["memo", "edit", "1", "--text", "고친 회의록", "--tag", "later"], method: "PATCH", path: "/memos/1",
             body: #"{"text": "고친 회의록", "add_tags": ["later"]}"#),
        Step(command: ["memo", "pin", "1"], method: "POST", path: "/memos/1/pin", body: nil),
        Step(command: ["memo", "add", "gone"], method: "POST", path: "/memos", body: #"{"text": "gone"}"#),
        Step(command: ["memo", "rm", "2"], method: "DELETE", path: "/memos/2", body: nil),
        Step(command: ["timer", "start", "25m", "--label", "집중", "--todo", "1"], method: "POST", path: "/timers",
             body: #"{"duration": "25m", "label": "집중", "todo_id": 1}"#),
        Step(command: ["timer", "start"], method: "POST", path: "/timers", body: "{}"),
        Step(command: ["timer", "lap", "2"], method: "POST", path: "/timers/2/lap", body: nil),
        Step(command: ["timer", "stop", "2"], method: "POST", path: "/timers/2/stop", body: nil),
        Step(command: ["timer", "pause", "1"], method: "POST", path: "/timers/1/pause", body: nil),
        Step(command: ["timer", "resume", "1"], method: "POST", path: "/timers/1/resume", body: nil),
        Step(command: ["timer", "cancel", "1"], method: "DELETE", path: "/timers/1", body: nil),
        Step(command: ["timer", "dismiss", "1"], method: "POST", path: "/timers/1/dismiss", body: nil),
        Step(command: ["voice", "edit", "1", "--title", "회의", "--tag", "meeting"], method: "PATCH", path: "/voice/1",
             body: #"{"title": "회의", "add_tags": ["meeting"]}"#),
        Step(command: ["voice", "trim", "1", "--start", "0.25", "--end", "0.75"], method: "POST", path: "/voice/1/trim",
             body: #"{"start": 0.25, "end": 0.75}"#),
        Step(command: ["voice", "rm", "2"], method: "DELETE", path: "/voice/2", body: nil),
    ]

    func testOneScriptThroughTheCommandLineAndThroughHTTPLeavesTheSameHome() throws {
        let folder = TemporaryDirectory()
        let byCommands = Memoapp(home: folder.appending("cli"))
        byCommands.onboard()
        // Voice memos come in as files: the same two imports on both sides.
        for _ in 0..<2 { XCTAssertEqual(byCommands.run("voice", "import", Self.tone, "--allow-duplicate").status, 0) }
        for step in Self.script {
            let result = byCommands.run(step.command)
            XCTAssertEqual(result.status, 0, "\(step.command): \(result.stderr)")
        }

        let byRequests = Memoapp(home: folder.appending("api"))
        byRequests.onboard()
        let token = byRequests.run("--json", "token", "create", "script").object()["token"] as? String ?? ""
        let serving = try ServingMemoapp(byRequests, arguments: ["serve", "--listen", "127.0.0.1:0"])
        for _ in 0..<2 {
            let upload = Curl.run(["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: audio/wav",
                                   "--data-binary", "@\(Self.tone)",
                                   serving.url + "/api/v1/voice?filename=tone-mono-16k.wav&allow_duplicate=true"])
            XCTAssertEqual(upload.status, 201, upload.text)
        }
        for step in Self.script {
            var arguments = ["-X", step.method, "-H", "Authorization: Bearer \(token)"]
            if let body = step.body { arguments += ["-H", "Content-Type: application/json", "-d", body] }
            let answer = Curl.run(arguments + [serving.url + "/api/v1" + step.path])
            XCTAssertTrue((200...201).contains(answer.status), "\(step.method) \(step.path): \(answer.text)")
        }
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)

        XCTAssertEqual(try comparable(byRequests), try comparable(byCommands))
        let left = byCommands.run("--json", "todo", "list", "--all").array()
        XCTAssertEqual(left.map { $0["title"] as? String }, ["Buy oat milk", "Buy oat milk"], "done, and its next occurrence")
        XCTAssertEqual(byCommands.run("--json", "timer", "list", "--all").array().count, 2)
        // One history, the same steps: named as typed on the command line,
        // in the same words for the API's changes.
        let cliSteps = byCommands.run("--json", "undo", "--list").array()
        let apiSteps = byRequests.run("--json", "undo", "--list").array()
        XCTAssertEqual(cliSteps.count, apiSteps.count)
        XCTAssertEqual(Set(cliSteps.map { $0["origin"] as? String }), ["cli"])
        XCTAssertEqual(Set(apiSteps.map { $0["origin"] as? String }), ["api"])
        XCTAssertEqual(apiSteps.first?["description"] as? String, "voice rm 2")
    }

    // MARK: - Support

    /// The export, without what differs between two homes by nature: the
    /// moments (every `…_at`, a timer's spans and laps' clock readings),
    /// the uids each home made, and the export's own header.
    private func comparable(_ app: Memoapp) throws -> String {
        let exported = app.run("export")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        var kept: [String: Any] = [:]
        for key in ["todos", "memos", "voice_memos", "timers", "last_ids"] { kept[key] = document[key].map(timeless) }
        let data = try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    private func timeless(_ value: Any) -> Any {
        if let array = value as? [Any] { return array.map(timeless) }
        guard let object = value as? [String: Any] else { return value }
        var kept: [String: Any] = [:]
        for (key, member) in object where !key.hasSuffix("_at") && key != "uid" && key != "todo_uid" {
            switch key {
            case "spans": kept[key] = (member as? [Any])?.count ?? -1
            case "elapsed": kept[key] = "elapsed"
            default: kept[key] = timeless(member)
            }
        }
        return kept
    }
}
