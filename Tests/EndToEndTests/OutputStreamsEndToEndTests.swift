import Foundation
import TestSupport
import XCTest

/// The binary's own stdout and stderr as a shell sets them up: a full disk
/// (/dev/full), a closed descriptor, a pipe whose reader went away; input
/// files that are FIFOs, and a standard input that cannot be read.
final class OutputStreamsEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", "Buy milk").status, 0)
    }

    /// Runs `script` under /bin/sh with `$M` naming the binary.
    private func shell(_ script: String, timeout: TimeInterval = 30) -> (status: Int32, stderr: String, timedOut: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = app.environment.merging(["M": Memoapp.binaryPath]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)", false) }
        let done = DispatchSemaphore(value: 0)
        let data = Locked(Data())
        DispatchQueue.global().async {
            let read = errors.fileHandleForReading.readDataToEndOfFile()
            data.withValue { $0 = read }
            done.signal()
        }
        let timedOut = done.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            kill(-process.processIdentifier, SIGKILL)
            process.terminate()
            done.wait()
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data.current, as: UTF8.self), timedOut)
    }

    private func requireDevFull() throws {
        var info = stat()
        try XCTSkipUnless(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR,
                          "/dev/full is not a device here")
    }

    func testAFullDiskOnStdoutIs74WithOneLine() throws {
        try requireDevFull()
        for command in ["todo list", "export", "todo list --json", "--help", "todo show 1"] {
            let result = shell("\"$M\" \(command) > /dev/full")
            XCTAssertEqual(result.status, 74, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
        }
        // A document written straight through (an hour's peaks are a million numbers).
        XCTAssertEqual(app.run("voice", "import", VoiceHome.fixture("beep.mp3")).status, 0)
        let peaks = shell("\"$M\" voice peaks 1 > /dev/full")
        XCTAssertEqual(peaks.status, 74, peaks.stderr)
        let json = shell("\"$M\" todo list --json > /dev/full")
        XCTAssertTrue(json.stderr.hasPrefix("{\"error\":{\"code\":\"storage\""), json.stderr)
    }

    func testAClosedStdoutIs74AndItsOutputLandsInNoFile() {
        let result = shell("\"$M\" todo list >&-")
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("Bad file descriptor"), result.stderr)
        // A write that changes data still happens; saying it is what failed.
        XCTAssertEqual(shell("\"$M\" todo add Second >&-").status, 74)
        XCTAssertEqual(app.run("todo", "list", "--json").array().count, 2)
        XCTAssertEqual(app.run("doctor").status, 0, app.run("doctor").stdout)
    }

    func testAFullStderrIs74() throws {
        try requireDevFull()
        let result = shell("\"$M\" todo show 99 2> /dev/full")
        XCTAssertEqual(result.status, 74)
    }

    func testAReaderThatGoesAwayEndsAQuiet141() throws {
        // Bigger than a pipe holds, so memoapp is still writing when head leaves.
        XCTAssertEqual(app.run(["memo", "add"], input: Data(String(repeating: "long memo text ", count: 200_000).utf8))
            .status, 0)
        let status = folder.appending("status")
        for setup in ["", "trap '' PIPE; "] {
            let result = shell("\(setup){ \"$M\" export; echo $? > \(status); } | head -c 10 > /dev/null")
            XCTAssertEqual(result.status, 0)
            let code = try String(contentsOfFile: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(code, "141", "\(setup.isEmpty ? "SIGPIPE" : "SIGPIPE ignored"): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "quiet")
        }
    }

    func testAFIFONamedAsInputIsRefusedWithoutHanging() throws {
        let fifo = folder.appending("input.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for command in ["import", "todo import --from todotxt", "todo import --from taskwarrior", "memo import"] {
            let result = shell("\"$M\" \(command) '\(fifo)'", timeout: 20)
            XCTAssertFalse(result.timedOut, "\(command) hung on a FIFO")
            XCTAssertEqual(result.status, 66, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("not a regular file"), "\(command): \(result.stderr)")
        }
    }

    func testAStandardInputThatCannotBeReadIsRefusedNotTakenAsWhatWasRead() throws {
        // A directory as stdin: read(2) fails (EISDIR). Before, a failed read
        // ended the input as if it were its end, so a memo or an import was
        // made of what had come (here nothing; mid-way, a truncated text).
        for command in ["memo add", "import -"] {
            let result = shell("\"$M\" \(command) < /", timeout: 20)
            XCTAssertEqual(result.status, 66, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot read standard input: Is a directory"), "\(command): \(result.stderr)")
        }
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 0, "no memo was made")
    }
}
