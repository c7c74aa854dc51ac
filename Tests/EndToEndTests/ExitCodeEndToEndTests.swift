import Foundation
import TestSupport
import XCTest

/// Every exit code the skeleton can produce, in text and in JSON.
final class ExitCodeEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    func testUsageErrorsExit64WithUsageAndHelpPointer() {
        let cases: [([String], String)] = [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["onboard", "frobnicate"], "unknown command 'frobnicate'"),
            (["onboard", "status", "--bogus"], "unknown option '--bogus'"),
            (["--lang", "fr", "onboard"], "--lang"),
            (["--home"], "needs a value"),
            (["onboard", "goto"], "missing N"),
            (["onboard", "goto", "2", "3"], "unexpected argument '3'"),
            (["--json=yes"], "takes no value"),
        ]
        for (arguments, expected) in cases {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("usage: memoapp"), result.stderr)
            XCTAssertTrue(result.stderr.contains("--help'"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "a usage error created the data home")
    }

    func testUsageErrorInJSONIsOneObjectOnStderr() throws {
        let result = app.run("--json", "frobnicate")
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        let object = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? String, "usage")
        XCTAssertEqual(error?["message"] as? String, "unknown command 'frobnicate'")
    }

    func testMessagesFollowTheLanguage() {
        let korean = app.run("--lang", "ko", "onboard", "goto", "9")
        XCTAssertEqual(korean.status, 64)
        XCTAssertTrue(korean.stderr.contains("사용법: memoapp onboard goto N"), korean.stderr)
        let json = app.run(["--json", "onboard", "goto", "9"], environment: ["MEMOAPP_LANG": "ko"])
        XCTAssertEqual(json.errorCode, "usage")
        XCTAssertTrue(json.stderr.contains("올바르지"), json.stderr)
    }

    func testHomeThatIsAFileIsAStorageFailure() throws {
        let file = folder.appending("plain-file")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        let result = app.run("--home", file, "onboard", "status")
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("not a folder"), result.stderr)
        XCTAssertEqual(app.run("--home", file, "--json", "onboard", "status").errorCode, "storage")
    }

    func testDatabaseOfAnotherProgramIsRefusedAndLeftUntouched() throws {
        try FileManager.default.createDirectory(atPath: app.home, withIntermediateDirectories: true)
        let database = app.home + "/memoapp.db"
        sqlite3(database, "CREATE TABLE other (x); INSERT INTO other VALUES (42);")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let result = app.run("onboard", "status")
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("not a memoapp database"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database)), before)
    }

    func testGarbageDatabaseIsAStorageFailureNotACrash() throws {
        try FileManager.default.createDirectory(atPath: app.home, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: URL(fileURLWithPath: app.home + "/memoapp.db"))
        let result = app.run("--json", "onboard", "status")
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertEqual(result.errorCode, "storage")
    }

    func testDatabaseFromANewerMemoappIsRefusedAndLeftUntouched() throws {
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        let database = app.home + "/memoapp.db"
        // As a newer memoapp leaves it: one more step, and its own mark in the header.
        sqlite3(database, "INSERT INTO schema_migrations (name) VALUES ('zzz.99-from-the-future'); PRAGMA user_version = 1")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let result = app.run("onboard", "next")
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("newer memoapp"), result.stderr)
        XCTAssertTrue(result.stderr.contains("zzz.99-from-the-future"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database)), before)
    }

    func testTwoProcessesMovingTheOnboardingAtOnceKeepOneValidState() throws {
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        let failures = Locked<[String]>([])
        let app = self.app!
        runConcurrently(workers: 2) { worker in
                for step in 0..<25 {
                    let arguments = (worker + step) % 3 == 0 ? ["onboard", "goto", "\(1 + step % 4)"]
                        : ((worker == 0) ? ["onboard", "next"] : ["onboard", "prev"])
                    let result = app.run(arguments)
                    if result.status != 0 {
                        failures.withValue { $0.append("\(arguments): \(result.status) \(result.stderr)") }
                    }
                }
        }
        XCTAssertEqual(failures.current, [])
        let status = app.run("onboard", "status", "--json").object()
        XCTAssertTrue((1...4).contains(status["current_page"] as? Int ?? 0))
        XCTAssertEqual(status["completed"] as? Bool, false)
        let output = sqlite3(app.home + "/memoapp.db", "PRAGMA integrity_check; SELECT count(*) FROM onboarding_state;")
        XCTAssertEqual(output, "ok\n1")
    }
}
