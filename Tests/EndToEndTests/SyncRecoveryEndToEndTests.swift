import Foundation
import TestSupport
import XCTest

/// What sync survives: a push sent twice, one out of order, hostile bodies,
/// a hub restored from an older backup, and kill -9 of a device or of the
/// hub at random moments of a sync: afterwards nothing is lost and nothing
/// doubled.
final class SyncRecoveryEndToEndTests: XCTestCase {
    private func push(_ homes: SyncHomes, _ body: String) -> CurlResult {
        Curl.run(["-X", "POST", "-H", "Authorization: Bearer \(homes.tokens[0])", "-H", "Content-Type: application/json",
                  "--data-binary", body, homes.url + "/api/v1/sync/changes"])
    }

    private func change(_ uid: String, number: Int, title: String, extra: String = "") -> String {
        #"{"kind": "todo", "uid": "\#(uid)", "change": \#(number), "removed": false, "changed": ["title"], "#
            + #""clocks": {"title": 1}, "values": {"title": "\#(title)", "note": null, "priority": null, "due_at": null, "#
            + #""due_has_time": false, "done_at": null, "remind_at": null, "repeat_every": null, "repeat_unit": null, "#
            + #""repeat_from": null, "repeat_day": null, "created_at": 1800000000, "tags": []\#(extra)}}"#
    }

    func testARetriedPushIsAppliedOnceAndAGapIsRefusedNamingTheExpectedChange() throws {
        let homes = try SyncHomes(devices: 1)
        let uid = "11111111-2222-4333-8444-555555555555"
        let body = #"{"device": "d1", "from": 0, "changes": [\#(change(uid, number: 5, title: "once"))]}"#
        let first = push(homes, body)
        XCTAssertEqual(first.status, 200, first.text)
        let again = push(homes, body)
        XCTAssertEqual(again.status, 200, again.text)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: again.body) as? [String: Any])
        XCTAssertEqual(answer["applied"] as? Int, 0)
        XCTAssertEqual(answer["skipped"] as? Int, 1)
        XCTAssertEqual(answer["through"] as? Int, 5)
        XCTAssertEqual(SyncHomes.todos(homes.hub).map { $0["title"] as? String }, ["once"], "applied once")

        let gap = push(homes, #"{"device": "d1", "from": 9, "changes": []}"#)
        XCTAssertEqual(gap.status, 409, gap.text)
        XCTAssertTrue(gap.text.contains("sync_out_of_order") && gap.text.contains("after 5"), gap.text)
        let stale = Curl.run(["-H", "Authorization: Bearer \(homes.tokens[0])",
                              homes.url + "/api/v1/sync/changes?after=0&epoch=not-this-one"])
        XCTAssertEqual(stale.status, 409)
        XCTAssertTrue(stale.text.contains("sync_epoch_changed"), stale.text)
    }

    func testHostileChangesAreRefusedWith422AndKeepNothing() throws {
        let homes = try SyncHomes(devices: 1)
        let uid = "11111111-2222-4333-8444-555555555555"
        let bodies = [
            #"{"device": "d1", "from": 0, "changes": [{"kind": "timer", "uid": "\#(uid)", "change": 1}]}"#,
            #"{"device": "d1", "from": 0, "changes": [\#(change("not-a-uid", number: 1, title: "x"))]}"#,
            #"{"device": "d1", "from": 0, "changes": [\#(change(uid, number: 1, title: "x", extra: #", "secret": 1"#))]}"#,
            #"{"device": "d1", "from": 0, "changes": [\#(change(uid, number: 1, title: "x").replacingOccurrences(of: #""priority": null"#, with: #""priority": 7"#))]}"#,
            #"{"device": "d1", "from": 0, "changes": [\#(change(uid, number: 1, title: "x").replacingOccurrences(of: #""created_at": 1800000000"#, with: #""created_at": 1e300"#))]}"#,
            #"{"device": "d1", "from": 0, "changes": [\#(change(uid, number: 2, title: "a")), \#(change(uid, number: 2, title: "b"))]}"#,
            #"{"device": "", "from": 0, "changes": []}"#,
            #"{"device": "d1", "from": -1, "changes": []}"#,
        ]
        for body in bodies {
            let result = push(homes, body)
            XCTAssertEqual(result.status, 422, "\(body): \(result.text)")
            XCTAssertTrue(result.text.contains(#""error""#), result.text)
        }
        XCTAssertTrue(SyncHomes.todos(homes.hub).isEmpty, "nothing of a refused push is kept")
        // A uid that names a to-do cannot be given to a memo.
        XCTAssertEqual(push(homes, #"{"device": "d2", "from": 0, "changes": [\#(change(uid, number: 1, title: "a to-do"))]}"#).status, 200)
        let memo = #"{"kind": "memo", "uid": "\#(uid)", "change": 2, "removed": false, "changed": ["text"], "clocks": {"text": 1}, "#
            + #""values": {"title": null, "text": "x", "is_pinned": false, "created_at": 1800000000, "conflict_of": null, "tags": []}}"#
        let clash = push(homes, #"{"device": "d2", "from": 1, "changes": [\#(memo)]}"#)
        XCTAssertEqual(clash.status, 422, clash.text)
        XCTAssertTrue(SyncHomes.memos(homes.hub).isEmpty)
        let tooMany = "[" + (1...2_001).map { change(UUID().uuidString.lowercased(), number: $0, title: "t") }
            .joined(separator: ",") + "]"
        let large = homes.folder.appending("large.json")
        try Data(#"{"device": "d1", "from": 0, "changes": \#(tooMany)}"#.utf8).write(to: URL(fileURLWithPath: large))
        XCTAssertEqual(push(homes, "@" + large).status, 413)
        let anonymous = Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                                  #"{"device": "d1", "from": 0, "changes": []}"#, homes.url + "/api/v1/sync/changes"])
        XCTAssertEqual(anonymous.status, 401)
    }

    func testAHubRestoredFromAnOlderBackupGetsBackWhatItMissed() throws {
        let homes = try SyncHomes(devices: 2)
        let (a, b) = (homes.devices[0], homes.devices[1])
        XCTAssertEqual(a.run("todo", "add", "before the backup").status, 0)
        XCTAssertEqual(a.run("memo", "add", "memo before the backup").status, 0)
        homes.syncAll()
        let backup = homes.folder.appending("hub-backup")
        XCTAssertEqual(homes.hub.run("backup", backup).status, 0)
        XCTAssertEqual(a.run("todo", "add", "after the backup, from a").status, 0)
        XCTAssertEqual(b.run("todo", "add", "after the backup, from b").status, 0)
        XCTAssertEqual(b.run("memo", "edit", "1", "--text", "memo edited after the backup").status, 0)
        homes.syncAll()
        let everything = SyncHomes.state(of: homes.hub)
        XCTAssertEqual(everything.count, 4)

        _ = homes.serving.stop(signal: SIGTERM)
        let restored = homes.hub.run("restore", backup, "--force")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        try homes.restartHub()
        XCTAssertEqual(SyncHomes.state(of: homes.hub).count, 2, "the hub lost what came after its backup")
        XCTAssertEqual(a.run("todo", "add", "waiting on a during the restore").status, 0)

        let report = homes.sync(0).object()
        XCTAssertEqual(report["fresh_copy"] as? Bool, true, "a new epoch: a fresh copy both ways")
        homes.syncAll()
        homes.assertConverged()
        let after = SyncHomes.state(of: homes.hub)
        XCTAssertEqual(after.count, 5, "everything the devices held is back, nothing doubled: \(after)")
        for (uid, fields) in everything { XCTAssertEqual(after[uid], fields, "\(fields["title"] ?? fields["text"] ?? uid)") }
        XCTAssertEqual(SyncHomes.memos(homes.hub).map { $0["text"] as? String }, ["memo edited after the backup"])
    }

    func testKillingADeviceOrTheHubMidSyncLosesAndDoublesNothing() throws {
        let homes = try SyncHomes(devices: 2)
        let (a, b) = (homes.devices[0], homes.devices[1])
        // Enough for a sync to take a while: several pushes and pull pages.
        let lines = (0..<2_500).map { "item \($0) of a" }.joined(separator: "\n")
        let file = homes.folder.appending("todo.txt")
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = a.run("todo", "import", file, "--from", "todotxt")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for index in 0..<30 { XCTAssertEqual(b.run("memo", "add", "memo \(index) of b").status, 0) }
        var generator = SplitMix(seed: 20261207)
        for round in 0..<6 {
            let device = round % 2 == 0 ? a : b
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
            process.arguments = ["sync", "--server", homes.url, "--token", homes.tokens[round % 2]]
            process.environment = device.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...400_000, using: &generator))
            if round % 3 == 2 {
                // The hub dies instead, mid-sync; it is started again.
                _ = homes.serving.stop(signal: SIGKILL)
                process.waitUntilExit()
                try homes.restartHub()
            } else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        homes.syncAll()
        homes.assertConverged()
        XCTAssertEqual(SyncHomes.todos(homes.hub).count, 2_500)
        XCTAssertEqual(SyncHomes.memos(homes.hub).count, 30)
        XCTAssertEqual(homes.hub.run("doctor").status, 0)
        XCTAssertEqual(a.run("doctor").status, 0)
    }
}
