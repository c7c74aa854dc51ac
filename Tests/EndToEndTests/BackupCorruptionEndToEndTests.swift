import Foundation
import SQLite
import TestSupport
import XCTest

/// Restoring a backup that is damaged, incomplete or forged: exit 65 naming
/// the file, and the data home exactly as it was, even with --force.
final class BackupCorruptionEndToEndTests: XCTestCase {
    private var scene: BackupScene!
    private var backup: String { scene.path("backup") }
    private var audioNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: backup + "/voice")) ?? []).sorted()
    }

    override func setUp() {
        super.setUp()
        scene = BackupScene()
        scene.backup()
    }

    override func tearDown() {
        scene = nil
        super.tearDown()
    }

    /// Restores into a home with data (with --force) and into a home that
    /// does not exist yet; both must refuse with 65, mention `naming`, and
    /// leave the home byte for byte as it was.
    private func assertRefused(naming words: [String], _ situation: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let existing = scene.otherApp("existing")
        if !FileManager.default.fileExists(atPath: existing.home) {
            existing.onboard(file: file, line: line)
            XCTAssertEqual(existing.run("todo", "add", "mine").status, 0, file: file, line: line)
            existing.run(["voice", "import", VoiceHome.fixture("beep.mp3")])
        }
        let before = fileTree(existing.home)
        let result = existing.run(["restore", backup, "--force", "--json"])
        XCTAssertEqual(result.status, 65, "\(situation): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.errorCode, "bad_input", situation, file: file, line: line)
        XCTAssertEqual(result.stdout, "", situation, file: file, line: line)
        for word in words {
            XCTAssertTrue(result.stderr.contains(word), "\(situation): '\(word)' not in \(result.stderr)", file: file, line: line)
        }
        XCTAssertEqual(fileTree(existing.home), before, "\(situation): the data home changed", file: file, line: line)

        let fresh = scene.otherApp("fresh")
        let text = fresh.run(["restore", backup])
        XCTAssertEqual(text.status, 65, "\(situation): \(text.stderr)", file: file, line: line)
        XCTAssertTrue(text.stderr.hasPrefix("memoapp: ") && text.stderr.split(separator: "\n").count == 1,
                      "\(situation): one line: \(text.stderr)", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.home), "\(situation): created the home",
                       file: file, line: line)
    }

    /// Rewrites the MANIFEST line of `path` with the file's present checksum.
    private func refreshManifest(for path: String) throws {
        let manifest = try String(contentsOfFile: backup + "/MANIFEST", encoding: .utf8)
        let lines = manifest.split(separator: "\n").map { line -> String in
            line.hasSuffix("  " + path) ? xxh128(backup + "/" + path) + "  " + path : String(line)
        }
        try writeManifest(backup, lines.joined(separator: "\n") + "\n")
    }

    // MARK: Damaged files

    func testAFlippedByteInAnAudioFile() throws {
        let name = try XCTUnwrap(audioNames.first)
        try overwrite(backup + "/voice/" + name, at: 200, count: 1)
        assertRefused(naming: ["voice/" + name, "damaged"], "flipped byte in audio")
    }

    func testAFlippedByteInTheDatabase() throws {
        try overwrite(backup + "/memoapp.db", at: 5000, count: 1)
        assertRefused(naming: ["memoapp.db", "damaged"], "flipped byte in the database")
    }

    func testADamagedDatabaseWhoseManifestWasUpdatedToMatch() throws {
        // Every page after the first overwritten: the checksum matches, SQLite does not.
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: backup + "/memoapp.db")[.size] as? Int)
        try overwrite(backup + "/memoapp.db", at: 4096, count: size - 4096)
        try refreshManifest(for: "memoapp.db")
        assertRefused(naming: ["memoapp.db"], "damaged pages")

        try overwrite(backup + "/memoapp.db", at: 0, count: 16)
        try refreshManifest(for: "memoapp.db")
        assertRefused(naming: ["memoapp.db", "cannot be read as a database"], "damaged header")
    }

    func testAnotherProgramsDatabase() throws {
        sqlite3(backup + "/memoapp.db", "PRAGMA application_id = 42")
        try refreshManifest(for: "memoapp.db")
        assertRefused(naming: ["memoapp.db", "not a memoapp database"], "foreign database")
    }

    func testADatabaseFromANewerMemoapp() throws {
        sqlite3(backup + "/memoapp.db",
                "INSERT INTO schema_migrations (name) VALUES ('future.1-something'); PRAGMA user_version = 1")
        try refreshManifest(for: "memoapp.db")
        assertRefused(naming: ["memoapp.db", "newer memoapp", "future.1-something"], "newer schema")
    }

    func testATriggerPlantedInTheDatabaseWithAMatchingManifestIsRefused() throws {
        // The attack: a trigger that empties the memos on the next `todo add`,
        // integrity_check says ok, and xxh128sum makes MANIFEST agree.
        sqlite3(backup + "/memoapp.db", "CREATE TRIGGER evil AFTER INSERT ON todos BEGIN DELETE FROM memos; END")
        XCTAssertEqual(sqlite3(backup + "/memoapp.db", "PRAGMA integrity_check"), "ok")
        try refreshManifest(for: "memoapp.db")
        XCTAssertEqual(runExternal("/usr/bin/xxh128sum", ["-c", "MANIFEST"], in: backup).status, 0)
        assertRefused(naming: ["memoapp.db", "trigger", "evil", "on todos is not one memoapp makes"], "planted trigger")
    }

    func testEveryKindOfForeignOrChangedSchemaObjectIsRefused() throws {
        let pristine = try Data(contentsOf: URL(fileURLWithPath: backup + "/memoapp.db"))
        let forgeries = [
            ("CREATE VIEW peek AS SELECT * FROM memos", "peek"),
            ("CREATE TABLE extra (x)", "extra"),
            ("CREATE INDEX sneaky ON todos (title)", "sneaky"),
            ("DROP INDEX todos_by_uid", "todos_by_uid\\\" on todos is missing"),
            ("DROP INDEX todos_by_uid; CREATE INDEX todos_by_uid ON todos (title)",
             "todos_by_uid\\\" on todos is not defined as memoapp defines it"),
        ]
        for (sql, words) in forgeries {
            try pristine.write(to: URL(fileURLWithPath: backup + "/memoapp.db"))
            sqlite3(backup + "/memoapp.db", sql)
            try refreshManifest(for: "memoapp.db")
            assertRefused(naming: [words], sql)
        }
    }

    // MARK: Missing pieces

    func testAMissingManifestIsAnInterruptedBackup() throws {
        try FileManager.default.removeItem(atPath: backup + "/MANIFEST")
        assertRefused(naming: ["no MANIFEST"], "no MANIFEST")
    }

    func testAMissingListedFile() throws {
        let name = try XCTUnwrap(audioNames.last)
        try FileManager.default.removeItem(atPath: backup + "/voice/" + name)
        assertRefused(naming: ["voice/" + name, "cannot be read"], "missing audio")
        try FileManager.default.removeItem(atPath: backup + "/memoapp.db")
        assertRefused(naming: ["memoapp.db"], "missing database")
    }

    func testAListedFileReplacedByASymbolicLink() throws {
        let name = try XCTUnwrap(audioNames.first)
        let elsewhere = scene.path("elsewhere.wav")
        try FileManager.default.moveItem(atPath: backup + "/voice/" + name, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: backup + "/voice/" + name, withDestinationPath: elsewhere)
        assertRefused(naming: ["voice/" + name, "symbolic link"], "symbolic link with the right bytes")
    }

    // MARK: Forged MANIFESTs

    func testManifestPathsOutsideTheBackupAreRefusedBeforeAnythingIsRead() throws {
        let original = try String(contentsOfFile: backup + "/MANIFEST", encoding: .utf8)
        // A file outside the backup with a correct checksum: reading it would already be wrong.
        let outside = scene.app.databasePath
        let checksum = xxh128(outside)
        for path in ["../home/memoapp.db", outside, "voice/../../home/memoapp.db", "voice/.hidden",
                     "./memoapp.db", "voice/1-\(String(repeating: "a", count: 32)).wav/../x", "MANIFEST", "voice/"] {
            try writeManifest(backup, original + "\(checksum)  \(path)\n")
            assertRefused(naming: ["MANIFEST", "line 4", "not a file a memoapp backup holds"], "path \(path)")
        }
    }

    func testMalformedManifests() throws {
        let original = try String(contentsOfFile: backup + "/MANIFEST", encoding: .utf8)
        let lines = original.split(separator: "\n").map(String.init)
        let cases: [(String, [String])] = [
            (lines.dropFirst().joined(separator: "\n") + "\n", ["no line for memoapp.db"]),
            (original + lines[1] + "\n", ["line 4", "a second time"]),
            (lines[0].replacingOccurrences(of: "  ", with: " ") + "\n", ["line 1 is not"]),
            (lines[0].uppercased().replacingOccurrences(of: "MEMOAPP.DB", with: "memoapp.db") + "\n", ["line 1 is not"]),
            (original.replacingOccurrences(of: "\n", with: "\r\n"), ["line 1"]),
            ("", ["no line for memoapp.db"]),
            (original + "\n", ["line 4 is not"]),
        ]
        for (text, words) in cases {
            try writeManifest(backup, text)
            assertRefused(naming: ["MANIFEST"] + words, "MANIFEST \(text.debugDescription)")
        }
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: backup + "/MANIFEST"))
        assertRefused(naming: ["not UTF-8"], "binary MANIFEST")
    }

    // MARK: Interrupted backups

    func testABackupKilledAtAnyMomentIsEitherWholeOrRefused() throws {
        var completed = 0
        for (round, delay) in [0.0, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3].enumerated() {
            let destination = scene.path("killed-\(round)")
            _ = try scene.app.runKilled(["backup", destination], after: delay)
            let restored = scene.otherApp("restored-\(round)")
            let result = restored.run(["restore", destination])
            if FileManager.default.fileExists(atPath: destination + "/MANIFEST") {
                XCTAssertEqual(result.status, 0, "round \(round): a backup with a MANIFEST is whole: \(result.stderr)")
                XCTAssertEqual(visibleContent(of: restored), visibleContent(of: scene.app), "round \(round)")
                completed += 1
            } else {
                XCTAssertTrue([65, 66].contains(result.status), "round \(round): \(result.status) \(result.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: restored.home), "round \(round)")
            }
        }
        XCTAssertGreaterThan(completed, 0, "the longest delay lets a backup finish")
    }
}
