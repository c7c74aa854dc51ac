import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 7: backup, restore, export and
/// imports killed with SIGKILL at moments spread over their run, then
/// checked: each move happened whole or not at all, and running it again
/// finishes the job. (The kill moments vary with the machine; what is
/// checked does not.)
final class TortureMovesEndToEndTests: XCTestCase {
    /// From before memoapp starts to after it usually ends.
    let delays: [TimeInterval] = [0, 0.004, 0.01, 0.02, 0.04, 0.08]

    func testKilledRestoreForceLeavesTheOldItemsOrTheBackupsAndRunningItAgainFinishes() throws {
        let scene = BackupScene()
        scene.backup()
        let expected = visibleContent(of: scene.app)
        let backupUIDs = uids(of: scene.app)
        for (round, delay) in delays.enumerated() {
            let target = scene.otherApp("target-\(round)")
            target.onboard()
            for title in ["old \(round)", "옛 할 일"] { XCTAssertEqual(target.run("todo", "add", title).status, 0) }
            XCTAssertEqual(target.run("memo", "add", "옛 메모 \(round)").status, 0)
            let oldUIDs = uids(of: target)
            _ = try target.runKilled(["restore", scene.path("backup"), "--force"], after: delay)
            target.assertIntegrity("round \(round)")
            let now = uids(of: target)
            XCTAssertTrue(now == oldUIDs || now == backupUIDs, "round \(round): a mix of old and restored items")
            assertNoRowWithoutFile(target, "round \(round)")
            // A temporary the kill left is swept by the next run once past the grace period.
            try ageLeftovers(in: target.home + "/voice")
            let again = target.run("restore", scene.path("backup"), "--force")
            XCTAssertEqual(again.status, 0, "round \(round): \(again.stderr)")
            XCTAssertEqual(visibleContent(of: target), expected, "round \(round)")
            XCTAssertEqual(fileTree(target.home + "/voice"), fileTree(scene.path("backup") + "/voice"), "round \(round)")
            XCTAssertEqual(target.doctor().status, 0, "round \(round)")
        }
    }

    func testKilledRestoreIntoANewHomeLeavesNoHalfDatabaseAndRunningItAgainFinishes() throws {
        let scene = BackupScene()
        scene.backup()
        let expected = visibleContent(of: scene.app)
        for (round, delay) in delays.enumerated() {
            let target = scene.otherApp("new-\(round)")
            _ = try target.runKilled(["restore", scene.path("backup")], after: delay)
            if FileManager.default.fileExists(atPath: target.databasePath) {
                target.assertIntegrity("round \(round)")
                XCTAssertEqual(visibleContent(of: target), expected, "round \(round): an incomplete database")
            }
            try ageLeftovers(in: target.home + "/voice")
            var again = target.run("restore", scene.path("backup"))
            // A kill after the audio or the database arrived leaves a home that
            // counts as having data: the second run then needs --force.
            if again.status == 5 { again = target.run("restore", scene.path("backup"), "--force") }
            XCTAssertEqual(again.status, 0, "round \(round): \(again.stderr)")
            XCTAssertEqual(visibleContent(of: target), expected, "round \(round)")
            XCTAssertEqual(target.doctor().status, 0, "round \(round)")
        }
    }

    func testKilledBackupIsRefusedOrRestoresWholeAndLeavesItsSourceAlone() throws {
        let scene = BackupScene()
        let expected = visibleContent(of: scene.app)
        let source = fileTree(scene.app.home + "/voice")
        for (round, delay) in delays.enumerated() {
            _ = try scene.app.runKilled(["backup", scene.path("backup-\(round)")], after: delay)
            XCTAssertEqual(visibleContent(of: scene.app), expected, "round \(round): the source changed")
            XCTAssertEqual(scene.app.doctor().status, 0, "round \(round)")
            let target = scene.otherApp("restored-\(round)")
            let restored = target.run("restore", scene.path("backup-\(round)"))
            XCTAssertTrue([0, 65, 66].contains(restored.status), "round \(round): \(restored.status) \(restored.stderr)")
            if restored.status == 0 {
                XCTAssertEqual(visibleContent(of: target), expected, "round \(round): a restored backup differs")
                XCTAssertEqual(fileTree(target.home + "/voice"), source, "round \(round)")
            } else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: target.databasePath), "round \(round)")
            }
        }
    }

    func testKilledTodoImportAddsEveryLineOrNone() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", "before").status, 0)
        let lines = (0..<2000).map { "(A) 할 일 \($0) +집 due:2099-12-0\($0 % 9 + 1)\n" }.joined()
        let file = folder.appending("todo.txt")
        try Data(lines.utf8).write(to: URL(fileURLWithPath: file))
        for (round, delay) in delays.enumerated() {
            _ = try app.runKilled(["todo", "import", "--from", "todotxt", file], after: delay)
            app.assertIntegrity("round \(round)")
            let count = sqlite3(app.databasePath, "SELECT count(*) FROM todos")
            XCTAssertTrue(count == "1" || count == "2001", "round \(round): \(count) to-dos after a kill")
        }
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testKilledExportLeavesTheOldFileOrAWholeDocument() throws {
        let scene = BackupScene()
        let previous = Data("{\"previous\": true}".utf8)
        for (round, delay) in delays.enumerated() {
            let output = scene.path("export-\(round).json")
            if round % 2 == 0 { try previous.write(to: URL(fileURLWithPath: output)) }
            _ = try scene.app.runKilled(["export", "-o", output, "--force"], after: delay)
            guard let data = FileManager.default.contents(atPath: output) else {
                XCTAssertNotEqual(round % 2, 0, "round \(round): the previous file is gone")
                continue
            }
            if data == previous { continue }
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            XCTAssertEqual(document?["format"] as? String, "memoapp-export", "round \(round): a half file")
            XCTAssertEqual((document?["todos"] as? [Any])?.count, 2, "round \(round)")
        }
    }

    // MARK: - Helpers

    /// Every item's uid, by kind, from `memoapp export`.
    private func uids(of app: Memoapp, file: StaticString = #filePath, line: UInt = #line) -> [String: Set<String>] {
        let document = app.run("export").object(file: file, line: line)
        var result: [String: Set<String>] = [:]
        for kind in ["todos", "memos", "voice_memos", "timers"] {
            result[kind] = Set(((document[kind] as? [[String: Any]]) ?? []).compactMap { $0["uid"] as? String })
        }
        return result
    }

    private func assertNoRowWithoutFile(_ app: Memoapp, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let names = sqlite3(app.databasePath, "SELECT file_name FROM voice_memos").split(separator: "\n").map(String.init)
        for name in names {
            XCTAssertTrue(FileManager.default.fileExists(atPath: app.home + "/voice/" + name),
                          "\(context): \(name) has a row but no file", file: file, line: line)
        }
    }
}
