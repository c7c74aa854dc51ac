import Foundation
@testable import MemoCLI
import TestSupport
import XCTest

/// `export -o`, `voice export` and `voice waveform --output` keep one set of
/// rules: nothing in the data home, no device, FIFO or folder, `-` is
/// standard output, an existing file only with --force, the format from the
/// name or --format, and messages that name the user's path.
final class OutputCommandsTests: XCTestCase {
    private let app = TestApp()
    private let scratch = TemporaryDirectory()

    override func setUp() {
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("todo", "add", "keep me").status, 0)
        XCTAssertEqual(app.run("voice", "import", JSONShapesDocumentTests.fixture("tone-mono-16k.wav")).status, 0)
        XCTAssertEqual(app.run("voice", "import", JSONShapesDocumentTests.fixture("beep.mp3")).status, 0)
    }

    func testNoCommandWritesOverTheDatabaseOrTheStoredAudio() throws {
        let audio = app.homePath + "/voice/" + (try storedAudio().first ?? "")
        let audioBytes = try Data(contentsOf: URL(fileURLWithPath: audio))
        let attempts: [[String]] = [
            ["voice", "waveform", "1", "--output", app.databasePath],
            ["voice", "waveform", "1", "--output", app.databasePath, "--force"],
            ["export", "-o", app.databasePath, "--force"],
            ["export", "-o", app.databasePath, "--format", "json", "--force"],
            ["export", "-o", audio, "--force", "--format", "json"],
            ["voice", "export", "2", audio, "--force"],
            ["voice", "export", "2", app.homePath + "/new.wav"],
        ]
        for arguments in attempts {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 5, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("is inside the data home"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: audio)), audioBytes)
        XCTAssertEqual(app.run("todo", "list").status, 0)
        XCTAssertEqual(app.run("voice", "verify").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.homePath + "/new.wav"))
    }

    func testDevicesFIFOsAndFoldersAreRefused() {
        let fifo = scratch.appending("pipe.svg")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for arguments in [["export", "-o", "/dev/null", "--force", "--format", "json"],
                          ["voice", "waveform", "1", "--output", fifo, "--force"],
                          ["voice", "export", "1", scratch.path, "--format", "wav", "--force"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 5, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("memoapp writes only regular files"), run.stderr)
        }
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR)
    }

    func testDashIsStandardOutputEverywhere() throws {
        let streams = RecordingStreams()
        XCTAssertEqual(app.run(["voice", "export", "1", "-", "--format", "wav"], streams: streams).status, 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: app.homePath + "/voice/" + (try storedAudio().first ?? "")))
        XCTAssertEqual(Data(streams.outputBytes), stored, "the stored WAV, byte for byte")
        let converted = RecordingStreams()
        XCTAssertEqual(app.run(["voice", "export", "1", "-", "--format", "flac", "--json"], streams: converted).status, 0)
        XCTAssertEqual(Array(converted.outputBytes.prefix(4)), Array("fLaC".utf8), "only the file on stdout")
        let picture = app.run("voice", "waveform", "1", "--output", "-")
        XCTAssertEqual(picture.status, 0, picture.stderr)
        XCTAssertTrue(picture.stdout.hasPrefix("<?xml"))
        XCTAssertTrue(app.run("export", "-o", "-").stdout.contains("\"memoapp-export\""))
        let noFormat = app.run("voice", "export", "1", "-")
        XCTAssertEqual(noFormat.status, 64)
        XCTAssertEqual(noFormat.stderr.split(separator: "\n").first,
                       "memoapp: standard output has no name to tell the format by; name the format with --format")
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    }

    func testAnExistingFileIsReplacedOnlyWithForceInEveryCommand() throws {
        for (arguments, file) in [(["export", "-o"], "out.json"), (["voice", "export", "1"], "out.wav"),
                                  (["voice", "waveform", "1", "--output"], "out.svg")] {
            let path = scratch.appending(file)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
            let refused = app.run(arguments + [path])
            XCTAssertEqual(refused.status, 5, "\(arguments)")
            XCTAssertEqual(refused.stderr, "memoapp: \(path) exists; add --force to replace it\n")
            XCTAssertEqual(FileManager.default.contents(atPath: path), Data("mine".utf8))
            XCTAssertEqual(app.run(arguments + [path, "--force"]).status, 0, "\(arguments)")
            XCTAssertNotEqual(FileManager.default.contents(atPath: path), Data("mine".utf8))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(),
                       ["out.json", "out.svg", "out.wav"], "no temporary left")
    }

    func testTheFormatFollowsTheNameAndAMismatchIsAnError() {
        let png = app.run("voice", "waveform", "1", "--output", scratch.appending("w.png"))
        XCTAssertEqual(png.status, 64)
        XCTAssertTrue(png.stderr.hasPrefix("memoapp: cannot tell the format from \(scratch.appending("w.png")): "
                                           + "it does not end in .svg; name the format with --format"), png.stderr)
        XCTAssertEqual(app.run("voice", "waveform", "1", "--output", scratch.appending("w.png"), "--format", "svg").status, 0)
        XCTAssertEqual(app.run("export", "-o", scratch.appending("x.txt")).status, 64)
        let mismatch = app.run("voice", "export", "1", scratch.appending("x.flac"), "--format", "wav")
        XCTAssertEqual(mismatch.status, 64)
        XCTAssertTrue(mismatch.stderr.contains("x.flac names a flac file, but wav was asked for"), mismatch.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appending("x.flac")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appending("x.txt")))
    }

    func testErrorsNameTheUsersPathNeverATemporary() {
        for arguments in [["voice", "waveform", "1", "--output", "/nonexistent/dir/w.svg"],
                          ["voice", "export", "1", "/nonexistent/dir/a.wav"],
                          ["export", "-o", "/nonexistent/dir/x.json"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 74, "\(arguments)")
            XCTAssertEqual(run.stderr, "memoapp: cannot create \(arguments.last ?? ""): No such file or directory\n")
        }
    }

    // MARK: - Helpers

    private func storedAudio() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: app.homePath + "/voice").filter { !$0.hasPrefix(".") }.sorted()
    }
}
