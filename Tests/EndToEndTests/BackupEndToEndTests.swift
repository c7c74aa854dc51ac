import Foundation
import SQLite
import TestSupport
import XCTest

/// `memoapp backup DIR` and `memoapp restore DIR [--force]`: the round trip,
/// the destination, the gate, and what a restore replaces.
final class BackupEndToEndTests: XCTestCase {
    private func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    private func voiceFiles(_ app: Memoapp) -> [String: Data] {
        fileTree(app.home + "/voice")
    }

    // MARK: Round trip

    func testRoundTripBringsEverythingBackIntoAFreshHome() throws {
        let scene = BackupScene()
        let before = visibleContent(of: scene.app)
        let report = scene.backup()
        XCTAssertEqual(report["path"] as? String, resolved(scene.path("backup")))
        XCTAssertEqual(report["ok"] as? Bool, true)
        XCTAssertEqual(report["todos"] as? Int, 2)
        XCTAssertEqual(report["memos"] as? Int, 1)
        XCTAssertEqual(report["voice_memos"] as? Int, 2)
        XCTAssertEqual(report["timers"] as? Int, 1)
        XCTAssertEqual(report["onboarded"] as? Bool, true)
        XCTAssertEqual(report["voice_files"] as? Int, 2)
        XCTAssertEqual((report["problems"] as? [Any])?.count, 0)
        let audioBytes = voiceFiles(scene.app).values.reduce(0) { $0 + $1.count }
        XCTAssertEqual(report["voice_bytes"] as? Int, audioBytes)
        XCTAssertEqual(report["bytes"] as? Int, (report["database_bytes"] as? Int ?? 0) + audioBytes)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: scene.path("backup"))),
                       ["memoapp.db", "voice", "MANIFEST"], "nothing else, no temporary folder")
        XCTAssertEqual(mode(scene.path("backup")), 0o700)
        XCTAssertEqual(mode(scene.path("backup/memoapp.db")), 0o600)
        let backupBefore = fileTree(scene.path("backup"))

        let restored = scene.otherApp("restored")
        let result = restored.run(["restore", scene.path("backup"), "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = result.object()
        XCTAssertEqual(object["home"] as? String, restored.home)
        XCTAssertEqual(object["from"] as? String, resolved(scene.path("backup")))
        XCTAssertEqual(object["replaced"] as? Bool, false)
        XCTAssertEqual(object["todos"] as? Int, 2)
        XCTAssertEqual(object["voice_memos"] as? Int, 2)
        XCTAssertEqual(object["onboarded"] as? Bool, true)
        XCTAssertEqual(object["voice_files"] as? Int, 2)
        XCTAssertEqual(object["removed_files"] as? [String], [])

        XCTAssertEqual(visibleContent(of: restored), before)
        XCTAssertEqual(voiceFiles(restored), voiceFiles(scene.app), "byte-identical audio under the same names")
        XCTAssertEqual(mode(restored.home), 0o700)
        XCTAssertEqual(mode(restored.databasePath), 0o600)
        XCTAssertEqual(mode(restored.home + "/voice"), 0o700)
        XCTAssertEqual(restored.run("voice", "verify").status, 0)
        XCTAssertEqual(restored.doctor().failingChecks, [])
        XCTAssertEqual(fileTree(scene.path("backup")), backupBefore, "restore only reads the backup")
        XCTAssertEqual(restored.run("todo", "add", "after the restore", "--json").object()["id"] as? Int, 3,
                       "ids go on from the backup's")
    }

    func testTextOutputSaysWhatWasCopiedAndHowToCheckIt() throws {
        let scene = BackupScene()
        let backup = scene.app.run("backup", scene.path("backup"))
        XCTAssertEqual(backup.status, 0, backup.stderr)
        XCTAssertTrue(backup.stdout.contains("Backed up to \(resolved(scene.path("backup"))): 2 to-dos, 1 memo, 2 voice memos, 1 timer"),
                      backup.stdout)
        XCTAssertTrue(backup.stdout.contains("xxh128sum -c MANIFEST"), backup.stdout)
        let restore = scene.otherApp("restored").run("--lang", "ko", "restore", scene.path("backup"))
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertTrue(restore.stdout.contains("복원했습니다: 할 일 2개, 메모 1개, 음성 메모 2개, 타이머 1개"), restore.stdout)
        XCTAssertTrue(restore.stdout.contains("온보딩 완료"), restore.stdout)
    }

    func testManifestIsWhatXXH128SumChecks() throws {
        let scene = BackupScene()
        scene.backup()
        let backup = scene.path("backup")
        let manifest = try String(contentsOfFile: backup + "/MANIFEST", encoding: .utf8)
        let lines = manifest.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.first, xxh128(backup + "/memoapp.db") + "  memoapp.db")
        for name in voiceFiles(scene.app).keys {
            XCTAssertTrue(lines.contains(xxh128(backup + "/voice/" + name) + "  voice/" + name), "\(name) in \(manifest)")
        }
        let check = runExternal("/usr/bin/xxh128sum", ["-c", "--strict", "MANIFEST"], in: backup)
        XCTAssertEqual(check.status, 0, check.output + check.errors)
        XCTAssertTrue(check.output.contains("memoapp.db: OK"), check.output)

        let audio = try XCTUnwrap(voiceFiles(scene.app).keys.first)
        try overwrite(backup + "/voice/" + audio, at: 100, count: 1)
        XCTAssertNotEqual(runExternal("/usr/bin/xxh128sum", ["-c", "MANIFEST"], in: backup).status, 0,
                          "a damaged backup fails the standard check too")
    }

    func testAnOlderBackupIsMigratedOnRestore() throws {
        let scene = BackupScene(filled: false)
        let backup = try firstMemoappBackup(in: scene)

        let result = scene.app.run("restore", backup, "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.object()["onboarded"] as? Bool, true)
        XCTAssertEqual(result.object()["todos"] as? Int, 0)
        XCTAssertEqual(scene.app.run("todo", "add", "the tables of later versions exist").status, 0)
        XCTAssertEqual(scene.app.doctor().failingChecks, [])
    }

    func testAnOlderBackupWithATableItsMigrationsDidNotMakeIsRefused() throws {
        let scene = BackupScene(filled: false)
        // The first memoapp knew only the onboarding table: a todos table
        // in its backup is not of its making, whatever a later one makes.
        let backup = try firstMemoappBackup(in: scene, adding: "CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT);")
        let result = scene.app.run("restore", backup)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("table \"todos\" is not one memoapp makes"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scene.app.home + "/memoapp.db"))
    }

    /// A backup as the first memoapp, with only the onboarding table, would
    /// have written it: its released migration's SQL (restore holds an old
    /// backup to the schema its own migrations made), and `extraSQL`.
    private func firstMemoappBackup(in scene: BackupScene, adding extraSQL: String = "") throws -> String {
        let backup = scene.path("old-backup")
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: false)
        do {
            let connection = try Connection(path: backup + "/memoapp.db", configuration: .memoappDatabase)
            try connection.executeScript("""
                CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL,
                    applied_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0));
                CREATE TABLE onboarding_state (id INTEGER PRIMARY KEY CHECK (id = 1),
                    current_page INTEGER NOT NULL DEFAULT 1, completed_at REAL);
                \(extraSQL)
                INSERT INTO onboarding_state VALUES (1, 4, 1800000000);
                INSERT INTO schema_migrations (name) VALUES ('onboarding.1-create-state');
                PRAGMA journal_mode = DELETE;
                """)
        }
        try writeManifest(backup, xxh128(backup + "/memoapp.db") + "  memoapp.db\n")
        return backup
    }

    // MARK: The gate

    func testBackupIsGatedAndCreatesNothing() {
        let scene = BackupScene(filled: false)
        let result = scene.app.run("backup", scene.path("backup"), "--json")
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.errorCode, "onboarding_required")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scene.path("backup")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scene.app.home))
    }

    func testRestoreRunsBeforeOnboardingAndTheHomeIsOnboardedAsTheBackupWas() throws {
        let scene = BackupScene()
        scene.backup()
        let newMachine = scene.otherApp("new")
        XCTAssertEqual(newMachine.run("todo", "list").status, 3)
        let result = newMachine.run("restore", scene.path("backup"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(newMachine.run("todo", "list").status, 0, "onboarded, as the backup was")
        XCTAssertEqual(newMachine.run("onboard", "status", "--json").object()["completed"] as? Bool, true)

        // A home part-way through the onboarding has no data: no --force needed.
        let halfway = scene.otherApp("halfway")
        XCTAssertEqual(halfway.run("onboard", "next").status, 0)
        XCTAssertEqual(halfway.run("onboard", "status", "--json").object()["completed"] as? Bool, false)
        XCTAssertEqual(halfway.run("restore", scene.path("backup")).status, 0)
        XCTAssertEqual(visibleContent(of: halfway), visibleContent(of: newMachine))
    }

    // MARK: Restoring over data

    func testRestoreRefusesAHomeWithDataWithoutForceAndChangesNothing() throws {
        let scene = BackupScene()
        scene.backup()
        let other = scene.otherApp("other")
        other.onboard()
        XCTAssertEqual(other.run("todo", "add", "mine").status, 0)
        let before = visibleContent(of: other)
        let result = other.run("restore", scene.path("backup"), "--json")
        XCTAssertEqual(result.status, 5)
        XCTAssertEqual(result.errorCode, "invalid_state")
        XCTAssertTrue(result.stderr.contains("--force"), result.stderr)
        XCTAssertTrue(result.stderr.contains("todos"), "says what data it has: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(visibleContent(of: other), before)

        let korean = other.run("--lang", "ko", "restore", scene.path("backup"))
        XCTAssertEqual(korean.status, 5)
        XCTAssertTrue(korean.stderr.contains("--force를 붙이세요"), korean.stderr)

        // Audio files alone are data too.
        let audioOnly = scene.otherApp("audio-only")
        try FileManager.default.createDirectory(atPath: audioOnly.home + "/voice", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: audioOnly.home + "/voice/recording.wav", contents: Data("RIFF".utf8)))
        XCTAssertEqual(audioOnly.run("restore", scene.path("backup")).status, 5)
        XCTAssertEqual(fileTree(audioOnly.home).keys.sorted(), ["voice/", "voice/recording.wav"])
    }

    func testARestoreStoppedBeforeItsDatabaseFinishesWhenRunAgainWithoutForce() throws {
        let scene = BackupScene()
        scene.backup()
        // What a restore killed after installing the audio leaves: the
        // backup's own files in voice/, no database.
        let stopped = scene.otherApp("stopped")
        try FileManager.default.createDirectory(atPath: stopped.home + "/voice", withIntermediateDirectories: true)
        let backupVoice = scene.path("backup") + "/voice"
        let names = try FileManager.default.contentsOfDirectory(atPath: backupVoice)
        XCTAssertFalse(names.isEmpty, "the scene has voice memos")
        for name in names {
            try FileManager.default.copyItem(atPath: backupVoice + "/" + name, toPath: stopped.home + "/voice/" + name)
        }
        let result = stopped.run("restore", scene.path("backup"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(visibleContent(of: stopped), visibleContent(of: scene.app))
        XCTAssertEqual(voiceFiles(stopped), voiceFiles(scene.app))

        // One file the backup does not bring, beside its files, is the user's: refused.
        let mixed = scene.otherApp("mixed")
        try FileManager.default.createDirectory(atPath: mixed.home + "/voice", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: backupVoice + "/" + names[0], toPath: mixed.home + "/voice/" + names[0])
        XCTAssertTrue(FileManager.default.createFile(atPath: mixed.home + "/voice/recording.wav", contents: Data("RIFF".utf8)))
        XCTAssertEqual(mixed.run("restore", scene.path("backup")).status, 5)
    }

    func testADatabaseCopyAKilledRestoreLeftGoesOnceItsLockIsFreeWhateverItsAge() throws {
        let scene = BackupScene()
        scene.backup()
        let target = scene.otherApp("target")
        target.onboard()
        let abandoned = target.home + "/.restore-0123456789abcdef.db.part"
        let live = target.home + "/.restore-fedcba9876543210.db.part"
        for path in [abandoned, live] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("SQLite".utf8))) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86400)], ofItemAtPath: live)
        let holder = open(live, O_RDONLY)
        XCTAssertEqual(flock(holder, LOCK_EX | LOCK_NB), 0, "this process plays the restore still writing it")
        defer { close(holder) }
        XCTAssertEqual(target.run("restore", scene.path("backup"), "--force").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned), "no writer: removed, though brand new")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "its writer holds the lock: kept, though old")
    }

    func testRestoreWithForceReplacesTheDataAndRemovesAudioNoRestoredMemoNames() throws {
        let scene = BackupScene()
        scene.backup()
        let other = scene.otherApp("other")
        other.onboard()
        XCTAssertEqual(other.run("todo", "add", "replaced").status, 0)
        let replaced = other.run("voice", "import", VoiceHome.fixture("beep.mp3"), "--json").object()
        let replacedFile = try XCTUnwrap((replaced["file"] as? String)?.split(separator: "/").last.map(String.init))

        let result = other.run("restore", scene.path("backup"), "--force", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.object()["replaced"] as? Bool, true)
        XCTAssertEqual(result.object()["removed_files"] as? [String], [replacedFile])
        XCTAssertEqual(visibleContent(of: other), visibleContent(of: scene.app))
        XCTAssertEqual(voiceFiles(other), voiceFiles(scene.app))
        XCTAssertEqual(other.doctor().failingChecks, [])
    }

    func testRestoreWithForceReplacesADatabaseThatCannotBeRead() throws {
        let scene = BackupScene()
        scene.backup()
        let other = scene.otherApp("other")
        other.onboard()
        XCTAssertEqual(other.run("todo", "add", "lost").status, 0)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: other.databasePath))

        let refused = other.run("restore", scene.path("backup"))
        XCTAssertEqual(refused.status, 5)
        XCTAssertTrue(refused.stderr.contains("cannot be read") && refused.stderr.contains("--force"), refused.stderr)

        let result = other.run("restore", scene.path("backup"), "--force")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(visibleContent(of: other), visibleContent(of: scene.app))
        XCTAssertEqual(other.doctor().failingChecks, [])
        XCTAssertEqual(mode(other.databasePath), 0o600)
    }

    func testAConnectionOpenDuringTheRestoreSeesTheRestoredContent() throws {
        let scene = BackupScene()
        scene.backup()
        let other = scene.otherApp("other")
        other.onboard()
        XCTAssertEqual(other.run("todo", "add", "before").status, 0)
        // Another memoapp process would hold the database open like this.
        let open = try Connection(path: other.databasePath)
        XCTAssertEqual(try open.query("SELECT title FROM todos") { $0.string(0) }, ["before"])

        XCTAssertEqual(other.run("restore", scene.path("backup"), "--force").status, 0)
        XCTAssertEqual(try open.query("SELECT title FROM todos ORDER BY id") { $0.string(0) }, ["Buy milk", "주간 보고서 쓰기"])
        XCTAssertEqual(try open.queryFirst("PRAGMA integrity_check") { $0.string(0) }, "ok")
        // A column no search index reads: this process has no memoapp
        // tokenizer unless another test registered it first.
        try open.execute("UPDATE todos SET priority = 1 WHERE title = ?", "Buy milk")
        let written = other.run("todo", "list", "--json").array().filter { $0["title"] as? String == "Buy milk" }
        XCTAssertEqual(written.map { $0["priority"] as? String }, ["low"], "written by the open connection")
    }

    // MARK: The destination

    func testDestinationMustBeANewOrEmptyFolderOutsideTheHome() throws {
        let scene = BackupScene()
        let full = scene.path("full")
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: full + "/notes.txt", contents: Data("keep".utf8)))
        let notEmpty = scene.app.run("backup", full, "--json")
        XCTAssertEqual(notEmpty.status, 5)
        XCTAssertEqual(notEmpty.errorCode, "invalid_state")
        XCTAssertTrue(notEmpty.stderr.contains("not empty"), notEmpty.stderr)
        XCTAssertEqual(fileTree(full), ["notes.txt": Data("keep".utf8)])

        let file = scene.path("a-file")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        XCTAssertEqual(scene.app.run("backup", file).status, 5)

        let inside = scene.app.home + "/backups/today"
        let insideResult = scene.app.run("backup", inside)
        XCTAssertEqual(insideResult.status, 5)
        XCTAssertTrue(insideResult.stderr.contains("inside the data home"), insideResult.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside))

        scene.backup(to: "done")
        let again = scene.app.run("backup", scene.path("done"))
        XCTAssertEqual(again.status, 5)
        XCTAssertTrue(again.stderr.contains("holds a backup already"), again.stderr)

        let empty = scene.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        XCTAssertEqual(scene.app.run("backup", empty).status, 0)
        let nested = scene.path("new/parents/backup")
        XCTAssertEqual(scene.app.run("backup", nested).status, 0)
        XCTAssertEqual(mode(nested), 0o700)
        XCTAssertEqual(runExternal("/usr/bin/xxh128sum", ["-c", "MANIFEST"], in: nested).status, 0)
    }

    func testAFullDiskFailsWith74AndLeavesTheDestinationEmpty() throws {
        let scene = BackupScene()
        let mount = try TemporaryMount(in: scene.folder, size: "1m")
        let destination = mount.path + "/backup"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        _ = mount.fill()
        let result = scene.app.run("backup", destination)
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("full") || result.stderr.contains("No space left"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertEqual(fileTree(destination), [:], "nothing half written is left")
    }

    // MARK: The command line

    func testHelpUsageAndAMissingBackup() {
        let scene = BackupScene(filled: false)
        for command in ["backup", "restore"] {
            let help = scene.app.run(command, "--help")
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("usage: memoapp \(command)"), help.stdout)
            let missing = scene.app.run(command)
            XCTAssertEqual(missing.status, 64, "\(command): \(missing.stderr)")
        }
        XCTAssertTrue(scene.app.run("restore", "--help").stdout.contains("--force"))
        let absent = scene.app.run("restore", scene.path("nowhere"), "--json")
        XCTAssertEqual(absent.status, 66)
        XCTAssertEqual(absent.errorCode, "no_input")
        let file = scene.path("a-file")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertEqual(scene.app.run("restore", file).status, 66)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scene.app.home), "nothing was created")
    }
}
