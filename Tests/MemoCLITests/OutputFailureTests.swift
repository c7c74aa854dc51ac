#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import MemoCLI
import XCTest

/// A write to stdout or stderr that the system refuses ends the command: one
/// line on stderr and exit 74, --json too; a reader that went away (EPIPE)
/// ends it quietly with 141, as SIGPIPE would.
final class OutputFailureTests: XCTestCase {
    private var app: TestApp!

    override func setUp() {
        app = TestApp()
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("todo", "add", "Buy milk").status, 0)
    }

    private func run(_ arguments: [String], configure: (RecordingStreams) -> Void) -> AppRun {
        let streams = RecordingStreams()
        configure(streams)
        return app.run(arguments, streams: streams)
    }

    func testAFullStdoutEndsWith74AndOneLine() {
        let run = run(["todo", "list"]) { $0.outputCapacity = 0 }
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stderr, "memoapp: cannot write to standard output: No space left on device; "
                       + "the output is incomplete\n")
    }

    func testAFullStdoutWithJSONIsTheStorageErrorDocument() {
        let run = run(["todo", "list", "--json"]) { $0.outputCapacity = 0 }
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.jsonError()?.code, "storage")
        XCTAssertTrue(run.jsonError()?.message.contains("No space left on device") ?? false, run.stderr)
    }

    func testAnExportCutShortByAFullDiskIsAFailure() {
        // The document is written part way, then the disk is full.
        let run = run(["export"]) { $0.outputCapacity = 100 }
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stdout.utf8.count, 100)
        XCTAssertTrue(run.stderr.hasPrefix("memoapp: cannot write to standard output"), run.stderr)
    }

    func testAClosedStdoutIs74() {
        let run = run(["todo", "list"]) {
            $0.outputCapacity = 0
            $0.outputFailure = EBADF
        }
        XCTAssertEqual(run.status, 74)
        XCTAssertTrue(run.stderr.contains("Bad file descriptor"), run.stderr)
    }

    func testHelpAndVersionCheckTheirWritesToo() {
        for arguments in [["--help"], ["todo", "add", "--help"], ["--version"], ["--version", "--json"]] {
            let run = run(arguments) { $0.outputCapacity = 0 }
            XCTAssertEqual(run.status, 74, "\(arguments)")
        }
    }

    func testABrokenPipeEndsQuietlyWith141() {
        let run = run(["todo", "list"]) {
            $0.outputCapacity = 0
            $0.outputFailure = EPIPE
        }
        XCTAssertEqual(run.status, 141)
        XCTAssertEqual(run.stderr, "")
    }

    func testAFailedStderrEndsWith74EvenWhenTheMessageCannotBeShown() {
        // A not-found (4) whose message cannot be written: the failure to say
        // so is what the status tells.
        let run = run(["todo", "show", "99"]) { $0.errorFailure = ENOSPC }
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stdout, "")
    }

    func testAWarningThatCannotBeWrittenEndsTheCommand() throws {
        let folder = app.directory.appending("doc")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // An export naming a voice memo whose audio is nowhere: import warns on stderr.
        let export = app.run("export", "--json")
        XCTAssertEqual(export.status, 0)
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        document["voice_memos"] = [[
            "id": 1, "uid": "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b", "title": "lost", "original_name": "lost.wav",
            "file_name": "1-0123456789abcdef0123456789abcdef.wav", "container": "WAV", "encoding": "PCM 16-bit",
            "format_code": 65538, "sample_rate": 8000, "channels": 1, "frames": 8000, "duration": 1, "size": 16044,
            "peak_level": 0.5, "checksum": "0123456789abcdef0123456789abcdef", "imported_at": "2026-11-29T13:24:04Z",
            "updated_at": NSNull(), "tags": [], "peaks": NSNull(),
        ]]
        let path = folder + "/export.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        let run = run(["import", path]) { $0.errorFailure = EIO }
        XCTAssertEqual(run.status, 74)
    }
}
