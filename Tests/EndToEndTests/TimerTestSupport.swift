import Foundation
import TestSupport
import XCTest

/// A memoapp process left running in the background (`timer wait`), so a test
/// can act on the timer meanwhile and collect the result later.
final class BackgroundMemoapp {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    init(_ memoapp: Memoapp, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = arguments
        process.environment = memoapp.environment
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Waits until `timer wait` sleeps towards its deadline: it has read the
    /// timer once and installed its signal handlers, so a pause, a cancel or a
    /// Ctrl-C from now on is one it meets while waiting. A condition read from
    /// /proc, not a guess at how long start-up takes on a loaded machine.
    func waitUntilSleeping(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        let pid = process.processIdentifier
        while process.isRunning && Date() < deadline {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            if channel.contains("nanosleep") { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTFail("memoapp \(process.arguments ?? []) never went to sleep", file: file, line: line)
    }

    /// Waits for the exit (failing the test after `timeout` seconds) and returns what it did.
    func finish(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) -> BackgroundResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            XCTFail("memoapp \(process.arguments ?? []) still running after \(timeout) s", file: file, line: line)
            process.terminate()
        }
        process.waitUntilExit()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        return BackgroundResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                                stderr: String(decoding: err, as: UTF8.self))
    }
}

/// What a background memoapp did.
struct BackgroundResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout as a JSON object, or empty when it is not one.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }
}

extension Memoapp {
    /// `args` with `--json`, checked to exit 0, as an object.
    func timerJSON(_ args: String..., file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let result = run(args + ["--json"])
        XCTAssertEqual(result.status, 0, "memoapp \(args): \(result.stderr)", file: file, line: line)
        return result.object(file: file, line: line)
    }
}

/// Parses the RFC 3339 times timers print (with milliseconds).
func timerTime(_ value: Any?) -> Date? {
    (value as? String).flatMap(documentTime)
}
