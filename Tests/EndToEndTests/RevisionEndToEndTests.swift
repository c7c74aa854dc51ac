import Foundation
import TestSupport
import XCTest

/// Item revisions across processes and releases: one counter of the data
/// home, so every change of any item, by whichever process, gets a rev no
/// other change has, and a home an older memoapp made is given revs when it
/// is first opened.
final class RevisionEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!

    override func setUp() {
        folder = TemporaryDirectory()
    }

    /// `fixtures/homes/previous-release`: a home the release before revisions
    /// made (to-dos with a rule, a reminder and tags, a done one, a pinned
    /// memo, a stopwatch with a lap, a voice memo and its audio, and the undo
    /// history of making them).
    func testAHomeThePreviousReleaseMadeMigratesGetsRevsAndPassesDoctor() throws {
        let home = folder.appending("home")
        try FileManager.default.copyItem(atPath: Self.fixture("homes/previous-release"), toPath: home)
        for path in [home, home + "/voice"] { chmod(path, 0o700) }
        chmod(home + "/memoapp.db", 0o600)
        let app = Memoapp(home: home)
        let before = app.run("doctor")
        XCTAssertEqual(before.status, 1, "doctor changes nothing, and says what the next command will apply")
        XCTAssertTrue(before.stdout.contains("revisions.1-from-the-change-log"), before.stdout)

        let todos = app.run("--json", "todo", "list", "--all").array()
        XCTAssertEqual(todos.map { $0["title"] as? String }, ["Buy milk", "회의 준비"])
        let rule = todos.first?["repeat"] as? [String: Any]
        XCTAssertEqual(rule?["unit"] as? String, "week", "the rule came through")
        XCTAssertNotNil(todos.first?["remind_at"] as? String, "the reminder came through")
        let revs = try items(app).map { $0["rev"] as? Int ?? 0 }
        XCTAssertEqual(revs.count, 5, "two to-dos, a memo, a timer and a voice memo")
        XCTAssertFalse(revs.contains(0), "every item has a revision: \(revs)")
        XCTAssertEqual(Set(revs).count, revs.count, "no two alike: \(revs)")
        let after = app.run("doctor")
        XCTAssertEqual(after.status, 0, after.stdout)
        XCTAssertEqual(app.run("voice", "verify").status, 0)

        // The history the older release recorded still undoes, and what it
        // writes back takes a new, higher revision.
        let undone = app.run("undo")
        XCTAssertEqual(undone.stdout, "Undid: todo edit 1 --tag errands\n", undone.stderr)
        let todo = app.run("--json", "todo", "show", "1").object()
        XCTAssertEqual(todo["tags"] as? [String], ["home"])
        XCTAssertGreaterThan(todo["rev"] as? Int ?? 0, revs.max() ?? 0)
    }

    func testEightCommandLinesAndFourHTTPClientsAtOnceGiveEveryChangeARevOfItsOwn() throws {
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        let token = app.run("--json", "token", "create", "writers").object()["token"] as? String ?? ""
        let serving = try ServingMemoapp(app, arguments: ["serve", "--listen", "127.0.0.1:0"])
        let failures = Locked([String]())
        let commandLines = ServeClients.concurrently(8) { writer in
            for index in 0..<6 {
                let added = app.run("--json", "todo", "add", "cli \(writer)-\(index)")
                guard added.status == 0 else {
                    failures.withValue { $0.append("add: \(added.stderr)") }
                    continue
                }
                let id = String(describing: added.object()["id"] ?? 0)
                let edited = app.run("todo", "edit", id, "--tag", "edited")
                if edited.status != 0 { failures.withValue { $0.append("edit: \(edited.stderr)") } }
            }
        }
        let clients = (0..<4).map { client in (0..<25).map { "http \(client)-\($0)" } }
        let answers = Locked([String]())
        let http = ServeClients.concurrently(clients.count) { index in
            let statuses = ServeClients.post(clients[index], to: serving.url, token: token, in: self.folder)
            answers.withValue { $0 += statuses }
        }
        commandLines.wait()
        http.wait()
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        XCTAssertEqual(failures.current, [])
        XCTAssertEqual(answers.current.count, 100)
        XCTAssertEqual(Set(answers.current), ["201"])

        let todos = app.run("--json", "todo", "list", "--all").array()
        XCTAssertEqual(todos.count, 8 * 6 + 100)
        let revs = todos.map { $0["rev"] as? Int ?? 0 }
        XCTAssertEqual(Set(revs).count, revs.count, "every rev its own")
        // 148 additions and 48 edits: the counter moved once for each, and
        // an edited to-do's rev is later than every addition made before it.
        XCTAssertEqual(revs.max(), 8 * 6 + 100 + 8 * 6)
        let logged = sqlite3(app.databasePath, "SELECT action, count(*) FROM item_changes WHERE kind = 'todo' GROUP BY action")
        XCTAssertEqual(logged, "changed|48\ncreated|148", "the change log holds every change")
    }

    // MARK: - Support

    /// Every item of every kind, as the lists give them.
    private func items(_ app: Memoapp) throws -> [[String: Any]] {
        app.run("--json", "todo", "list", "--all").array() + app.run("--json", "memo", "list").array()
            + app.run("--json", "timer", "list", "--all").array() + app.run("--json", "voice", "list").array()
    }

    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures").appendingPathComponent(path).path
    }
}
