import Foundation
import TestSupport
import XCTest

/// `memoapp remind` running in the background, its stdout and stderr going
/// to files the test reads while it runs.
final class WatchingMemoapp {
    let process = Process()
    private let outputPath: String
    private let errorPath: String

    init(_ memoapp: Memoapp, in folder: TemporaryDirectory, arguments: [String] = [],
         environment extra: [String: String] = [:]) throws {
        outputPath = folder.appending("remind-\(UUID().uuidString).out")
        errorPath = outputPath + ".err"
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = ["remind"] + arguments
        process.environment = memoapp.environment.merging(extra) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and returns the exit status once it has ended.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// CPU time used so far (user + system), in clock ticks, from /proc.
    var cpuTicks: Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}

/// Waits until `condition` holds, checking every 20 ms; false after
/// `timeout` seconds (generous: a loaded machine is slow, never fast).
func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// The contents of a file, or "" when it does not exist yet.
func contents(of path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
