import Foundation
import TestSupport
import XCTest

/// One rule for a command that finishes but leaves something out: exit 1,
/// the report on stdout (with --json too), what was left out named. Backup
/// and import meet the same missing audio file and must answer alike; with
/// nothing left out both exit 0.
final class SkippedItemsExitCodeEndToEndTests: XCTestCase {
    /// A home with a to-do and two voice memos, one of whose audio files is gone.
    private func homeMissingOneAudioFile(_ homes: TransferHomes) throws -> (Memoapp, missingTitle: String) {
        let app = homes.home("source")
        app.object("todo", "add", "a to-do")
        app.object("voice", "import", TransferHomes.fixtures + "/beep.mp3")
        let memo = app.object("voice", "import", TransferHomes.fixtures + "/korean-title.ogg")
        let title = try XCTUnwrap(memo["title"] as? String)
        let file = try XCTUnwrap(memo["file"] as? String)
        try FileManager.default.removeItem(atPath: file)
        return (app, title)
    }

    func testBackupAndImportBothExitOneWhenAVoiceMemosAudioIsMissing() throws {
        let homes = TransferHomes()
        let (source, missingTitle) = try homeMissingOneAudioFile(homes)

        let backup = source.run("backup", homes.folder.appending("backup"), "--json")
        XCTAssertEqual(backup.status, 1, backup.stderr)
        XCTAssertEqual((backup.object()["problems"] as? [Any])?.count, 1, backup.stdout)

        let export = homes.folder.appending("export.json")
        XCTAssertEqual(source.run("export", "-o", export).status, 0)
        let target = homes.home("target")
        let imported = target.run("import", export, "--audio", source.home + "/voice", "--json")
        XCTAssertEqual(imported.status, 1, "finished, but one voice memo was left out: \(imported.stderr)")
        let report = imported.object()
        XCTAssertEqual((report["voice_memos"] as? [String: Any])?["added"] as? Int, 1, imported.stdout)
        XCTAssertEqual((report["voice_memos"] as? [String: Any])?["audio_missing"] as? Int, 1, imported.stdout)
        XCTAssertEqual((report["todos"] as? [String: Any])?["added"] as? Int, 1, "the rest went in")

        let text = homes.home("text target").run("import", export, "--audio", source.home + "/voice")
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.contains("1 skipped (audio not found)"), text.stdout)
        XCTAssertTrue(text.stderr.contains(missingTitle), text.stderr)
    }

    func testBackupAndImportExitZeroWhenNothingIsLeftOut() {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.object("voice", "import", TransferHomes.fixtures + "/beep.mp3")
        XCTAssertEqual(source.run("backup", homes.folder.appending("backup")).status, 0)
        let export = homes.folder.appending("export.json")
        XCTAssertEqual(source.run("export", "-o", export).status, 0)
        let target = homes.home("target")
        XCTAssertEqual(target.run("import", export, "--audio", source.home + "/voice").status, 0)
        // Already present is not left out: a second import is a success too.
        XCTAssertEqual(target.run("import", export, "--audio", source.home + "/voice").status, 0)
    }
}
