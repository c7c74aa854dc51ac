import Foundation
import TestSupport
import XCTest

/// What `memoapp doctor --json` said: the exit status and each check by name.
struct DoctorOutcome {
    let status: Int32
    let document: [String: Any]
    let stderr: String

    var checks: [[String: Any]] { document["checks"] as? [[String: Any]] ?? [] }

    /// The status word of one check (`ok`, `problem`, `skipped`), nil when absent.
    func status(of name: String) -> String? {
        checks.first { $0["name"] as? String == name }?["status"] as? String
    }

    /// The problems of one check, as "message / fix" lines.
    func problems(of name: String) -> [(message: String, fix: String)] {
        let check = checks.first { $0["name"] as? String == name }
        let problems = check?["problems"] as? [[String: Any]] ?? []
        return problems.map { ($0["message"] as? String ?? "", $0["fix"] as? String ?? "") }
    }

    /// The names of the checks that found a problem.
    var failingChecks: [String] {
        checks.filter { $0["status"] as? String == "problem" }.compactMap { $0["name"] as? String }
    }
}

extension Memoapp {
    /// Runs `memoapp doctor --json` and parses its report (doctor reports on
    /// stdout whatever its exit status).
    func doctor(file: StaticString = #filePath, line: UInt = #line) -> DoctorOutcome {
        let result = run(["doctor", "--json"])
        let object = (try? JSONSerialization.jsonObject(with: result.stdoutBytes)) as? [String: Any]
        XCTAssertNotNil(object, "doctor --json printed no object: \(result.stdout) \(result.stderr)", file: file, line: line)
        return DoctorOutcome(status: result.status, document: object ?? [:], stderr: result.stderr)
    }

    var databasePath: String { home + "/memoapp.db" }
}

/// Runs the sqlite3 shell on a database (to damage it the way a user or
/// another program could) and returns its output. The shell cannot write
/// to-dos or memos: it lacks the search tokenizer (see `memoappSQL`).
@discardableResult
func sqlite3(_ database: String, _ sql: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    runSQLTool("/usr/bin/sqlite3", database, sql, file: file, line: line)
}

/// Runs SQL through memoapp-sql, which has the search tokenizer: how a test
/// writes to-dos and memos by hand.
@discardableResult
func memoappSQL(_ database: String, _ sql: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    runSQLTool(Memoapp.sqlToolPath, database, sql, file: file, line: line)
}

private func runSQLTool(_ tool: String, _ database: String, _ sql: String, file: StaticString, line: UInt) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [database, sql]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch {
        XCTFail("cannot run \(tool): \(error)", file: file, line: line)
        return ""
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, String(decoding: data, as: UTF8.self), file: file, line: line)
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Overwrites `count` bytes of a file at `offset` with `byte`.
func overwrite(_ path: String, at offset: UInt64, count: Int, with byte: UInt8 = 0xA5) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: Data(repeating: byte, count: count))
}

/// Sets a file's mode (chmod).
func setMode(_ path: String, _ mode: Int) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
}
