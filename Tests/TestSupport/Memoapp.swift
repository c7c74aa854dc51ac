import Foundation
import XCTest

/// What one run of the memoapp binary did.
public struct RunResult {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let stdoutBytes: Data

    /// stdout parsed as JSON (object or array); fails the test when it is not JSON.
    public func json(file: StaticString = #filePath, line: UInt = #line) -> Any? {
        do {
            return try JSONSerialization.jsonObject(with: stdoutBytes, options: [])
        } catch {
            XCTFail("stdout is not JSON: \(stdout)\nstderr: \(stderr)", file: file, line: line)
            return nil
        }
    }

    /// stdout as a JSON object.
    public func object(file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        guard let object = json(file: file, line: line) as? [String: Any] else {
            XCTFail("stdout is not a JSON object: \(stdout)", file: file, line: line)
            return [:]
        }
        return object
    }

    /// stdout as a JSON array of objects.
    public func array(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        guard let array = json(file: file, line: line) as? [[String: Any]] else {
            XCTFail("stdout is not a JSON array of objects: \(stdout)", file: file, line: line)
            return []
        }
        return array
    }

    /// The `error.code` of a --json failure on stderr.
    public var errorCode: String? {
        guard let data = stderr.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let error = object["error"] as? [String: Any] else { return nil }
        return error["code"] as? String
    }
}

/// Runs the built `memoapp` binary in a data home of its own.
public struct Memoapp {
    public let home: String
    public var environment: [String: String]

    /// The binary: `$MEMOAPP_BINARY`, else `memoapp` beside the test bundle
    /// (SwiftPM builds both into the same products folder).
    public static var binaryPath: String {
        if let explicit = ProcessInfo.processInfo.environment["MEMOAPP_BINARY"] { return explicit }
        let bundle = Bundle.main.bundleURL
        for folder in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("memoapp").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("memoapp").path
    }

    /// `memoapp-sql` beside the binary: SQL on a memoapp database with the
    /// search tokenizer, which the sqlite3 shell lacks, for writes by hand.
    public static var sqlToolPath: String {
        URL(fileURLWithPath: binaryPath).deletingLastPathComponent().appendingPathComponent("memoapp-sql").path
    }

    /// A memoapp with `home` as its data home, English messages and no colour.
    public init(home: String) {
        // A child that exits before reading its stdin must not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        self.home = home
        var environment = ProcessInfo.processInfo.environment
        for key in ["MEMOAPP_HOME", "MEMOAPP_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "XDG_DATA_HOME"] {
            environment.removeValue(forKey: key)
        }
        environment["MEMOAPP_HOME"] = home
        environment["TZ"] = environment["TZ"] ?? "UTC"
        self.environment = environment
    }

    /// Runs memoapp with `arguments`, feeding `input` to its stdin.
    @discardableResult
    public func run(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:],
                    timeout: TimeInterval = 60) -> RunResult {
        let result = runChildProcess(Memoapp.binaryPath, arguments, environment: environment.merging(extra) { $1 },
                                     input: input, timeout: timeout)
        return RunResult(status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
                         stderr: String(decoding: result.stderr, as: UTF8.self), stdoutBytes: result.stdout)
    }

    /// Runs with a string on stdin.
    @discardableResult
    public func run(_ arguments: String..., input: String) -> RunResult {
        run(arguments, input: Data(input.utf8))
    }

    @discardableResult
    public func run(_ arguments: String...) -> RunResult {
        run(arguments)
    }

    /// Completes the onboarding so that main commands run.
    public func onboard(file: StaticString = #filePath, line: UInt = #line) {
        let result = run(["onboard", "skip"])
        XCTAssertEqual(result.status, 0, "onboard skip failed: \(result.stderr)", file: file, line: line)
    }
}

/// A time as every memoapp document shows it (RFC 3339 UTC with
/// milliseconds, `2026-11-29T13:24:04.250Z`), or nil for any other text.
public func documentTime(_ text: String) -> Date? {
    guard text.count == 24, text.hasSuffix("Z") else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}
