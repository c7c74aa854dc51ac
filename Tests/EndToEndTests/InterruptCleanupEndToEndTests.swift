import Foundation
import TestSupport
import XCTest

/// Ctrl-C, SIGTERM or SIGHUP in the middle of a write: memoapp still dies of
/// the signal (the shell reports 130, 143, 129), and the temporary it was
/// writing goes with it instead of staying hidden beside the destination.
///
/// The moment is made certain, not guessed: `fixtures/preload/hold-part-fsync.c`,
/// loaded with LD_PRELOAD, stops memoapp inside the fsync of its temporary
/// and creates a marker file; the test sends the signal only once the marker
/// is there, so the temporary exists and the write has not ended.
final class InterruptCleanupEndToEndTests: XCTestCase {
    func testCtrlCDuringAnExportRemovesItsTemporary() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", "Buy milk").status, 0)
        let out = folder.appending("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)

        let held = try startHeld(app, ["export", "-o", out + "/memos.json"], folder: folder)
        XCTAssertEqual(try hiddenParts(in: out).count, 1, "the export's temporary exists while it is held")
        let (reason, status) = end(held, with: SIGINT)
        XCTAssertEqual(reason, .uncaughtSignal, "dies of the signal, as before")
        XCTAssertEqual(status, SIGINT)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing left, hidden or not")
    }

    func testSigtermDuringAVoiceImportRemovesItsTemporaryAndStoresNothing() throws {
        let voice = VoiceHome()
        let wav = voice.folder.appending("tone.wav")
        let samples = (0..<8000).map { Int16(truncatingIfNeeded: ($0 * 37) % 20000 - 10000) }
        try HandMadeWAV.bytes(samples: samples, channels: 1, rate: 8000).write(to: URL(fileURLWithPath: wav))
        // A first import makes the library folder, so the listing below is of files only.
        voice.importFile(wav)
        let before = voice.libraryFiles

        let held = try startHeld(voice.app, ["voice", "import", wav, "--allow-duplicate"], folder: voice.folder)
        XCTAssertEqual(voice.libraryFiles.filter { $0.hasSuffix(".part") }.count, 1, "the import's copy is being written")
        let (reason, status) = end(held, with: SIGTERM)
        XCTAssertEqual(reason, .uncaughtSignal)
        XCTAssertEqual(status, SIGTERM)
        XCTAssertEqual(voice.libraryFiles, before, "no temporary and no second file left in voice/")
        XCTAssertEqual(voice.memos().count, 1, "nothing stored by the interrupted import")
    }

    func testHangupDuringAVoiceExportRemovesItsTemporary() throws {
        let voice = VoiceHome()
        let wav = voice.folder.appending("tone.wav")
        let samples = (0..<8000).map { Int16(truncatingIfNeeded: ($0 * 53) % 16000 - 8000) }
        try HandMadeWAV.bytes(samples: samples, channels: 1, rate: 8000).write(to: URL(fileURLWithPath: wav))
        let id = try XCTUnwrap(voice.importFile(wav)["id"] as? Int)
        let out = voice.folder.appending("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)

        let held = try startHeld(voice.app, ["voice", "export", String(id), out + "/tone.flac"], folder: voice.folder)
        XCTAssertEqual(try hiddenParts(in: out).count, 1, "the converted copy is being written")
        let (reason, status) = end(held, with: SIGHUP)
        XCTAssertEqual(reason, .uncaughtSignal)
        XCTAssertEqual(status, SIGHUP)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [])
    }

    // A backup's work is a folder (`.memoapp-backup-….part/`), which a signal
    // handler cannot remove (that needs a directory walk); `backup` names it
    // when the same destination is used again. See BackupWriter.

    // MARK: - Helpers

    /// The shim (fixtures/preload/hold-part-fsync.c), built once per test run.
    private static let shim = PreloadLibrary.build("hold-part-fsync")

    /// Starts memoapp with the shim and returns once it is held inside the
    /// fsync of its temporary.
    private func startHeld(_ app: Memoapp, _ arguments: [String], folder: TemporaryDirectory,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Process {
        let marker = folder.appending("held-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = arguments
        var environment = app.environment
        environment["LD_PRELOAD"] = try InterruptCleanupEndToEndTests.shim.get()
        environment["HOLD_MARKER"] = marker
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A condition, not a guess: the marker appears once memoapp is held.
        // The generous bound only turns a memoapp that never gets there into
        // a failure instead of a hang.
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: marker) {
            guard process.isRunning, Date() < deadline else {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                XCTFail("memoapp \(arguments) ended (\(process.terminationStatus)) before its temporary's fsync",
                        file: file, line: line)
                throw CancellationError()
            }
            usleep(10_000)
        }
        return process
    }

    private func end(_ process: Process, with signalNumber: Int32) -> (Process.TerminationReason, Int32) {
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    private func hiddenParts(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") && $0.hasSuffix(".part") }
    }
}
