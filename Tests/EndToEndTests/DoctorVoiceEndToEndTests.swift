import Foundation
import TestSupport
import XCTest

/// `memoapp doctor` on the voice library: a row deleted behind its file, a
/// file deleted behind its row, changed bytes, an abandoned temporary, each
/// made for real and found through the voice module's verification.
final class DoctorVoiceEndToEndTests: XCTestCase {
    var home: VoiceHome!
    var app: Memoapp { home.app }
    var library: String { app.home + "/voice" }

    override func setUp() {
        home = VoiceHome()
    }

    private func importTwo() -> (first: [String: Any], second: [String: Any]) {
        let first = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let second = home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        XCTAssertEqual(app.doctor().status, 0, "the library is healthy before the damage")
        return (first, second)
    }

    func testHealthyLibraryIsReportedIntact() {
        _ = importTwo()
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status(of: "voice_library"), "ok")
        let summary = outcome.checks.first { $0["name"] as? String == "voice_library" }?["summary"] as? String
        XCTAssertEqual(summary, "2 voice memos intact, no stray files")
    }

    func testAFileMemoappDidNotWriteIsReportedAndLeftAlone() throws {
        _ = importTwo()
        let stray = library + "/stray.wav"
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: stray))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["voice_library"])
        let problem = try XCTUnwrap(outcome.problems(of: "voice_library").first)
        XCTAssertTrue(problem.message.contains("stray.wav") && problem.message.contains("did not write"), problem.message)
        XCTAssertTrue(problem.fix.contains("move it out of the voice folder"), problem.fix)
        _ = home.importFile(VoiceHome.fixture("beep.mp3"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stray), "a writing command sweeps only what memoapp wrote")
    }

    func testFileDeletedBehindItsRowIsFound() throws {
        let (first, _) = importTwo()
        try FileManager.default.removeItem(atPath: try XCTUnwrap(first["file"] as? String))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["voice_library"])
        let problem = try XCTUnwrap(outcome.problems(of: "voice_library").first)
        XCTAssertTrue(problem.message.contains("the file is missing"), problem.message)
        XCTAssertTrue(problem.fix.hasSuffix("memoapp voice rm \(first["id"] as? Int ?? -1)"), problem.fix)
    }

    func testRowDeletedBehindItsFileIsFound() throws {
        let (_, second) = importTwo()
        let id = try XCTUnwrap(second["id"] as? Int)
        sqlite3(app.databasePath, "PRAGMA foreign_keys = ON; DELETE FROM voice_memos WHERE id = \(id)")
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["voice_library"])
        let problem = try XCTUnwrap(outcome.problems(of: "voice_library").first)
        let name = try XCTUnwrap((second["file"] as? String)?.split(separator: "/").last)
        XCTAssertTrue(problem.message.contains(name) && problem.message.contains("no voice memo owns"), problem.message)
        XCTAssertTrue(problem.fix.contains("memoapp voice import"), problem.fix)
    }

    func testChangedBytesAreFound() throws {
        let (first, _) = importTwo()
        let path = try XCTUnwrap(first["file"] as? String)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try overwrite(path, at: UInt64(size - 100), count: 50, with: 0x11)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["voice_library"])
        XCTAssertTrue(outcome.problems(of: "voice_library").first?.message.contains("changed") ?? false,
                      "\(outcome.problems(of: "voice_library"))")
    }

    func testAbandonedTemporaryIsATemporaryFileProblemAndALockedOneIsNot() throws {
        _ = importTwo()
        let old = library + "/.import-00000000000000aa.part"
        let fresh = library + "/.import-00000000000000bb.part"
        _ = FileManager.default.createFile(atPath: old, contents: Data(repeating: 1, count: 4096))
        _ = FileManager.default.createFile(atPath: fresh, contents: Data(repeating: 2, count: 4096))
        // A writer holds the lock of the one being written; no one holds the other's, whatever their ages.
        let writer = open(fresh, O_RDONLY)
        defer { close(writer) }
        XCTAssertEqual(flock(writer, LOCK_EX | LOCK_NB), 0)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["temporary_files"])
        let problems = outcome.problems(of: "temporary_files")
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems.first?.message.hasPrefix(old) ?? false, "\(problems)")
        XCTAssertEqual(outcome.status(of: "voice_library"), "ok")

        // The next writing voice command removes it, as the fix says.
        XCTAssertTrue(problems.first?.fix.contains("the next voice import") ?? false)
        XCTAssertEqual(app.run("voice", "rm", "1").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old))
        try FileManager.default.removeItem(atPath: fresh)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testVoiceCheckIsSkippedWhenTheDatabaseCannotBeUsed() throws {
        _ = importTwo()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: app.databasePath))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 74)
        XCTAssertEqual(outcome.status(of: "voice_library"), "skipped")
    }
}
