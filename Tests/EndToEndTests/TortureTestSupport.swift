import Foundation
import TestSupport
import XCTest

/// What the torture tests share: starting memoapp and killing it, and the
/// checks every part ends with.
extension Memoapp {
    /// Starts memoapp with stdin from `input` (a file) or nothing, waits
    /// `delay` seconds, sends SIGKILL if it is still running, and returns its
    /// exit status (or -9 when killed) and stdout.
    func runKilled(_ arguments: [String], after delay: TimeInterval, input: String? = nil) throws
        -> (status: Int32, stdout: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
            ?? FileHandle.nullDevice
        try process.run()
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal
        return (killed ? -process.terminationStatus : process.terminationStatus, data)
    }

    /// Asserts that SQLite finds nothing wrong with the database.
    func assertIntegrity(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(sqlite3(databasePath, "PRAGMA integrity_check", file: file, line: line), "ok", context,
                       file: file, line: line)
    }

    /// Asserts a one-line `memoapp: ` message with exit 74 that mentions one of `words`.
    func assertStorageFailure(_ result: RunResult, mentioning words: [String], _ context: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 74, "\(context): \(result.stderr)", file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(context): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), "\(context): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(words.contains { result.stderr.contains($0) }, "\(context): \(result.stderr)", file: file, line: line)
    }
}

/// A tmpfs mounted for one test (root only), unmounted when released.
final class TemporaryMount {
    let path: String

    /// Mounts a tmpfs of `size` (e.g. "2m") at a new folder under `folder`,
    /// or throws XCTSkip when this machine does not allow it.
    init(in folder: TemporaryDirectory, size: String) throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        path = folder.appending("mount")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard TemporaryMount.mount(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) else {
            throw XCTSkip("mount -t tmpfs was refused here")
        }
    }

    deinit {
        _ = TemporaryMount.mount(["-o", "remount,rw", path])
        _ = TemporaryMount.run("/bin/umount", ["-l", path])
    }

    /// Remounts read-only (true) or read-write (false).
    func setReadOnly(_ isReadOnly: Bool) -> Bool {
        TemporaryMount.mount(["-o", isReadOnly ? "remount,ro" : "remount,rw", path])
    }

    /// Fills the mount with a file until the disk is full; returns its path.
    func fill() -> String {
        let filler = path + "/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        for size in [65536, 4096, 1] {
            let chunk = [UInt8](repeating: 0, count: size)
            while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
        return filler
    }

    private static func mount(_ arguments: [String]) -> Bool {
        run("/bin/mount", arguments)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Moves every file in `folder` an hour into the past: past the grace period
/// in which memoapp leaves a temporary alone because a live command may be
/// writing it, so the next command treats a killed command's leftovers as
/// abandoned, as it would after any real pause.
func ageLeftovers(in folder: String) throws {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                              ofItemAtPath: folder + "/" + name)
    }
}
