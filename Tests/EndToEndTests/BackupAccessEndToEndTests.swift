import Foundation
import SQLite
import TestSupport
import XCTest

/// Issue 29, finding 6, as reproduced: `memoapp restore` of an older backup
/// brought revoked tokens and ended sessions back to life. A restore into a
/// home that had a database keeps that home's tokens and sessions; only a
/// new machine's (no database) gets the backup's; and it says which.
final class BackupAccessEndToEndTests: XCTestCase {
    private func tokenNames(_ app: Memoapp) -> [String] {
        app.run("--json", "token", "list").array().compactMap { $0["name"] as? String }
    }

    /// A live web session written as a sign-in writes it (a digest of a
    /// secret; no server needed to hold one).
    private func addSession(_ app: Memoapp, byte: UInt8) throws {
        let connection = try Connection(path: app.environment["MEMOAPP_HOME"]! + "/memoapp.db")
        try connection.execute("INSERT INTO api_sessions (hash, created_at, expires_at) VALUES (?, ?, ?)",
                               SQLiteValue.blob([UInt8](repeating: byte, count: 32)), 1.0, 4_000_000_000.0)
    }

    private func sessionIDs(_ app: Memoapp) -> [String] {
        app.run("--json", "token", "sessions").array().compactMap { $0["id"] as? String }
    }

    func testARestoreKeepsThisHomesRevocations() throws {
        let scene = BackupScene()
        XCTAssertEqual(scene.app.run("token", "create", "laptop").status, 0)
        XCTAssertEqual(scene.app.run("token", "create", "phone").status, 0)
        try addSession(scene.app, byte: 0xAA)
        scene.backup()
        // Since the backup: the phone was lost, its token revoked and the
        // session ended; a tablet was added.
        XCTAssertEqual(scene.app.run("token", "revoke", "phone").status, 0)
        XCTAssertEqual(scene.app.run("token", "end-session", "--all").status, 0)
        XCTAssertEqual(scene.app.run("token", "create", "tablet").status, 0)
        let tablet = try XCTUnwrap(scene.app.run("--json", "token", "list").array().last?["created_at"] as? String)

        let result = scene.app.run("restore", scene.path("backup"), "--force", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let access = try XCTUnwrap(result.object()["access"] as? [String: Any])
        XCTAssertEqual(access["kept"] as? String, "home")
        XCTAssertEqual(access["tokens"] as? Int, 2)
        XCTAssertEqual(access["sessions"] as? Int, 0)
        XCTAssertEqual(access["not_restored_tokens"] as? Int, 2)
        XCTAssertEqual(access["not_restored_sessions"] as? Int, 1)
        XCTAssertEqual(tokenNames(scene.app), ["laptop", "tablet"], "the revoked phone stays revoked")
        XCTAssertEqual(scene.app.run("--json", "token", "list").array().last?["created_at"] as? String, tablet)
        XCTAssertEqual(sessionIDs(scene.app), [], "the ended session stays ended")
        // The items did come from the backup.
        XCTAssertEqual(scene.app.run("--json", "todo", "list", "--all").array().count, 2)
        // The copy the credentials were written into left nothing behind (no WAL of it).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scene.path("home"))
            .filter { $0.contains("restore") }
        XCTAssertEqual(leftovers, [])
        // And the home's database is still in WAL mode (header bytes 18 and 19 are 2).
        let header = try XCTUnwrap(FileHandle(forReadingAtPath: scene.path("home") + "/memoapp.db")?.readData(ofLength: 20))
        XCTAssertEqual(Array(header.suffix(2)), [2, 2])
    }

    func testTheRestoreSaysWhatItDidWithTheTokens() throws {
        let scene = BackupScene()
        XCTAssertEqual(scene.app.run("token", "create", "laptop").status, 0)
        scene.backup()
        XCTAssertEqual(scene.app.run("token", "revoke", "laptop").status, 0)
        let english = scene.app.run("restore", scene.path("backup"), "--force")
        XCTAssertEqual(english.status, 0, english.stderr)
        XCTAssertTrue(english.stdout.contains("Kept this home's 0 API tokens and 0 web sessions; the backup's 1 API token "
                                              + "and 0 web sessions were not restored"), english.stdout)
        XCTAssertEqual(tokenNames(scene.app), [])
        let korean = scene.app.run("--lang", "ko", "restore", scene.path("backup"), "--force")
        XCTAssertTrue(korean.stdout.contains("백업의 API 토큰 1개와 웹 세션 0개는 복원하지 않았으므로"), korean.stdout)
    }

    func testANewMachineGetsTheBackupsTokensAndSessions() throws {
        let scene = BackupScene()
        XCTAssertEqual(scene.app.run("token", "create", "laptop").status, 0)
        try addSession(scene.app, byte: 0xBB)
        scene.backup()
        let newMachine = scene.otherApp("new")
        let result = newMachine.run("restore", scene.path("backup"), "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let access = try XCTUnwrap(result.object()["access"] as? [String: Any])
        XCTAssertEqual(access["kept"] as? String, "backup")
        XCTAssertEqual(access["tokens"] as? Int, 1)
        XCTAssertEqual(access["sessions"] as? Int, 1)
        XCTAssertEqual(tokenNames(newMachine), ["laptop"])
        XCTAssertEqual(sessionIDs(newMachine), ["bbbbbbbbbbbb"])
        XCTAssertTrue(newMachine.run("restore", scene.path("backup"), "--force").stdout
            .contains("Kept this home's 1 API token and 1 web session"), "a second restore keeps what the first brought")
    }

    func testAHomeWhoseDatabaseCannotBeReadKeepsNeitherTokensNorSessions() throws {
        let scene = BackupScene()
        XCTAssertEqual(scene.app.run("token", "create", "laptop").status, 0)
        scene.backup()
        let broken = scene.otherApp("broken")
        let home = scene.path("broken")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data("not a database, whatever it once was".utf8).write(to: URL(fileURLWithPath: home + "/memoapp.db"))
        XCTAssertNotEqual(broken.run("restore", scene.path("backup")).status, 0, "refused without --force")
        let result = broken.run("restore", scene.path("backup"), "--force", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let access = try XCTUnwrap(result.object()["access"] as? [String: Any])
        XCTAssertEqual(access["kept"] as? String, "neither")
        XCTAssertEqual(access["not_restored_tokens"] as? Int, 1)
        XCTAssertEqual(tokenNames(broken), [])
        XCTAssertTrue(broken.run("restore", scene.path("backup"), "--force").stdout.contains("Kept this home's 0 API tokens"))
    }
}
