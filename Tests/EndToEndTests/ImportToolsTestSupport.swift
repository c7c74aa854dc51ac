import Foundation
import TestSupport
import XCTest

/// Runs another tool (todo.sh, Taskwarrior) the way a user would, so the
/// import tests read files those tools really wrote. A missing tool fails the
/// test loudly: scripts/test installs them (Debian todotxt-cli, taskwarrior).
@discardableResult
func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
             file: StaticString = #filePath, line: UInt = #line) -> String {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        XCTFail("\(executable) is missing: install it (scripts/test does: todotxt-cli, taskwarrior)", file: file, line: line)
        return ""
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch {
        XCTFail("cannot run \(executable): \(error)", file: file, line: line)
        return ""
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments): \(errorText)", file: file, line: line)
    return String(decoding: data, as: UTF8.self)
}

/// A todo.txt folder driven by Debian's todo.sh (installed as `todo-txt`).
struct TodoTxtFolder {
    let folder: String
    var todoFile: String { folder + "/todo.txt" }
    var doneFile: String { folder + "/done.txt" }
    private var config: String { folder + "/config" }

    init(in directory: TemporaryDirectory) throws {
        folder = directory.appending("todotxt")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            export TODO_DIR="\(folder)"
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"
            """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// `todo.sh -d CONFIG ARGS…`, never auto-archiving (-a) and never asking (-f).
    func callAsFunction(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        runTool("/usr/bin/todo-txt", ["-d", config, "-a", "-f"] + arguments, file: file, line: line)
    }
}

/// A Taskwarrior database in a temporary folder, with an empty taskrc so no
/// question is asked and the user's own configuration is not read.
struct TaskwarriorFolder {
    let folder: String

    init(in directory: TemporaryDirectory) throws {
        folder = directory.appending("taskwarrior")
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/taskrc", contents: Data())
    }

    /// `task ARGS…` on this folder's data; returns its standard output.
    @discardableResult
    func callAsFunction(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> String {
        runTool("/usr/bin/task", ["rc.data.location=" + folder + "/data", "rc.confirmation=off", "rc.verbose=nothing",
                                  "rc.recurrence.confirmation=no"] + arguments,
                environment: ["TASKRC": folder + "/taskrc", "TASKDATA": folder + "/data"], file: file, line: line)
    }

    /// `task export` written to a file, whose path is returned.
    func export(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = folder + "/export.json"
        try self("export", file: file, line: line).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
