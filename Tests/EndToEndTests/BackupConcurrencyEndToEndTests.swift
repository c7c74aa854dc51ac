import Foundation
import SQLite
import TestSupport
import XCTest

/// Backups taken while other memoapp processes write: the test (four
/// processes adding to-dos) and voice memos removed during the backup.
final class BackupConcurrencyEndToEndTests: XCTestCase {
    /// One `todo add` a writer saw succeed, and when it returned.
    private struct Acknowledged {
        let id: Int
        let title: String
        let at: Date
    }

    func testBackupWhileFourProcessesWriteHoldsEveryWriteAcknowledgedBeforeItBegan() throws {
        let scene = BackupScene(filled: false)
        scene.app.onboard()
        let app = scene.app
        let writers = 4
        let addsPerWriter = 30
        let acknowledged = Locked<[Acknowledged]>([])
        let failures = Locked<[String]>([])
        let backupStart = Locked<Date?>(nil)
        let backupResult = Locked<RunResult?>(nil)

        var bodies: [@Sendable () -> Void] = (0..<writers).map { writer in
            {
                for index in 0..<addsPerWriter {
                    let title = "writer \(writer) add \(index)"
                    let result = app.run(["todo", "add", title, "--json"])
                    let at = Date()
                    let document = try? JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any]
                    guard result.status == 0, let id = document?["id"] as? Int else {
                        failures.withValue { $0.append("\(title): \(result.status) \(result.stderr)") }
                        continue
                    }
                    acknowledged.withValue { $0.append(Acknowledged(id: id, title: title, at: at)) }
                }
            }
        }
        bodies.append {
            // The backup starts at a known moment, with the writers well under way.
            while acknowledged.current.count < writers * addsPerWriter / 3 { usleep(2000) }
            backupStart.withValue { $0 = Date() }
            let result = app.run(["backup", scene.path("backup"), "--json"])
            backupResult.withValue { $0 = result }
        }
        runOnOwnThreads(bodies)

        XCTAssertEqual(failures.current, [], "several writers at once lose nothing")
        let backup = try XCTUnwrap(backupResult.current)
        XCTAssertEqual(backup.status, 0, backup.stderr)
        let start = try XCTUnwrap(backupStart.current)
        XCTAssertEqual(sqlite3(scene.path("backup/memoapp.db"), "PRAGMA integrity_check"), "ok")

        let restored = scene.otherApp("restored")
        let restore = restored.run(["restore", scene.path("backup")])
        XCTAssertEqual(restore.status, 0, restore.stderr)
        let connection = try Connection(path: restored.databasePath)
        XCTAssertEqual(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
        let rows = Dictionary(uniqueKeysWithValues: try connection.query("SELECT id, title FROM todos") {
            ($0.int(0), $0.string(1))
        })

        let before = acknowledged.current.filter { $0.at < start }
        XCTAssertGreaterThanOrEqual(before.count, writers * addsPerWriter / 3)
        for write in before {
            XCTAssertEqual(rows[write.id], write.title, "acknowledged before the backup began, so it must be in it")
        }
        // One snapshot: the commits up to some moment, all of them, and nothing
        // else (ids are given in commit order).
        let all = Dictionary(uniqueKeysWithValues: acknowledged.current.map { ($0.id, $0.title) })
        XCTAssertFalse(rows.isEmpty)
        XCTAssertEqual(rows.keys.sorted(), Array(1...max(1, rows.count)))
        for (id, title) in rows { XCTAssertEqual(all[id], title, "to-do \(id) is one a writer added") }
    }

    func testBackupWhileVoiceMemosAreRemovedHasTheFileOfEveryMemoItHolds() throws {
        try assertBackupDuringRemovals(descriptorLimit: nil)
    }

    func testWithFewFileDescriptorsTheFilesAreCopiedUnderTheLockAndStillMatch() throws {
        // 40 open files: fewer than the descriptors memoapp keeps in reserve,
        // so the backup copies the audio before it lets writers go on.
        try assertBackupDuringRemovals(descriptorLimit: 40)
    }

    // MARK: - Private

    private func assertBackupDuringRemovals(descriptorLimit: Int?, file: StaticString = #filePath, line: UInt = #line) throws {
        let scene = BackupScene(filled: false)
        scene.app.onboard()
        let app = scene.app
        let memoCount = 24
        let removers = 3
        for _ in 1...memoCount {
            let result = app.run(["voice", "import", VoiceHome.fixture("tone-mono-16k.wav"), "--allow-duplicate"])
            XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        }
        let removedAt = Locked<[(id: Int, at: Date)]>([])
        let failures = Locked<[String]>([])
        let backupStart = Locked<Date?>(nil)
        let backupResult = Locked<(status: Int32, output: String, errors: String)?>(nil)
        // Several removers, so that some wait for the lock while the backup holds it
        // and unlink their file the moment it lets go.
        var bodies: [@Sendable () -> Void] = (0..<removers).map { remover in
            {
                for id in stride(from: 1 + remover, through: memoCount, by: removers) {
                    let result = app.run(["voice", "rm", "\(id)"])
                    if result.status == 0 {
                        removedAt.withValue { $0.append((id, Date())) }
                    } else {
                        failures.withValue { $0.append("rm \(id): \(result.status) \(result.stderr)") }
                    }
                }
            }
        }
        bodies.append {
            while removedAt.current.count < removers { usleep(2000) }
            backupStart.withValue { $0 = Date() }
            let result = runExternal("/bin/sh", ["-c", (descriptorLimit.map { "ulimit -n \($0) && " } ?? "")
                                                + "exec \"$0\" backup \"$1\" --json", Memoapp.binaryPath, scene.path("backup")],
                                 environment: app.environment)
            backupResult.withValue { $0 = result }
        }
        runOnOwnThreads(bodies)
        XCTAssertEqual(failures.current, [], file: file, line: line)
        let backup = try XCTUnwrap(backupResult.current, file: file, line: line)
        XCTAssertEqual(backup.status, 0, backup.errors, file: file, line: line)
        XCTAssertTrue(backup.output.contains("\"problems\":[]"), backup.output, file: file, line: line)
        XCTAssertEqual(runExternal("/usr/bin/xxh128sum", ["-c", "MANIFEST"], in: scene.path("backup")).status, 0,
                       file: file, line: line)

        let restored = scene.otherApp("restored")
        XCTAssertEqual(restored.run(["restore", scene.path("backup")]).status, 0, file: file, line: line)
        let verify = restored.run(["voice", "verify", "--json"])
        XCTAssertEqual(verify.status, 0, "every memo in the backup has its intact file: \(verify.stdout)", file: file, line: line)
        let ids = restored.run(["voice", "list", "--json"]).array(file: file, line: line).compactMap { $0["id"] as? Int }
        let start = try XCTUnwrap(backupStart.current, file: file, line: line)
        let removedBefore = Set(removedAt.current.filter { $0.at < start }.map(\.id))
        XCTAssertGreaterThanOrEqual(removedBefore.count, 2, file: file, line: line)
        XCTAssertTrue(removedBefore.isDisjoint(with: ids), "removed before the backup: \(removedBefore), in it: \(ids)",
                      file: file, line: line)
        // Each remover goes in id order, so a snapshot holds, of each one's ids, those from some id on.
        for remover in 0..<removers {
            let mine = ids.filter { ($0 - 1) % removers == remover }
            if let first = mine.first {
                XCTAssertEqual(mine, Array(stride(from: first, through: memoCount, by: removers)), file: file, line: line)
            }
        }
        XCTAssertEqual(fileTree(restored.home + "/voice").count, ids.count, "no file without its memo", file: file, line: line)
    }
}
