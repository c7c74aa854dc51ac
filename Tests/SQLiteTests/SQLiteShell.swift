import Foundation

/// The sqlite3 command-line shell as a second process writing to the database:
/// what another program (or another memoapp) does beside a pool.
final class SQLiteShell {
    private let process = Process()
    private let input = Pipe()
    private let errorOutput = Pipe()

    init(database: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-batch", "-bail", database]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorOutput
        try process.run()
    }

    /// Sends lines to the shell, which runs each statement as it arrives.
    func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    }

    /// Ends the shell's input and waits for it to exit; its status.
    func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    var errors: String {
        String(decoding: errorOutput.fileHandleForReading.availableData, as: UTF8.self)
    }
}
