import Foundation
import MemoCore
@testable import MemoCLI
import SQLite
import TestSupport
import XCTest

/// A clock that always says the same time.
struct FixedClock: WallClock {
    var time = Timestamp(secondsSince1970: 1_795_958_644)
    func now() -> Timestamp { time }
}

/// What one in-process run of the App did.
struct AppRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stderr parsed as the JSON error document, `{"error": {"code", "message"}}`.
    func jsonError(file: StaticString = #filePath, line: UInt = #line) -> (code: String, message: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(stderr.utf8)) as? [String: Any],
              let error = object["error"] as? [String: Any],
              let code = error["code"] as? String, let message = error["message"] as? String else {
            XCTFail("stderr is not a JSON error: \(stderr)", file: file, line: line)
            return nil
        }
        return (code, message)
    }

    /// stdout parsed as a JSON object.
    func jsonObject(file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            XCTFail("stdout is not a JSON object: \(stdout)", file: file, line: line)
            return [:]
        }
        return object
    }
}

/// Runs the App in process with a data home inside a fresh temporary folder
/// (not created until a command creates it) and no locale, so English.
final class TestApp {
    let directory = TemporaryDirectory()
    var extraCommands: [Command] = []
    var environment: [String: String] = [:]

    var homePath: String { directory.appending("home") }
    var databasePath: String { homePath + "/memoapp.db" }
    var homeExists: Bool { FileManager.default.fileExists(atPath: homePath) }

    init(extraCommands: [Command] = []) {
        self.extraCommands = extraCommands
        environment = ["MEMOAPP_HOME": homePath, "HOME": directory.path]
    }

    @discardableResult
    func run(_ arguments: [String], streams: RecordingStreams = RecordingStreams()) -> AppRun {
        let app = App(environment: environment, streams: streams, clock: FixedClock(), extraCommands: extraCommands)
        let status = app.run(arguments)
        return AppRun(status: status, stdout: streams.output, stderr: streams.error)
    }

    @discardableResult
    func run(_ arguments: String...) -> AppRun { run(arguments) }

    /// The data home's database, opened as the sqlite3 shell would: for
    /// writing what no command writes (a damaged or hand-edited row).
    func openDatabase() throws -> Connection {
        try Connection(path: databasePath)
    }
}
