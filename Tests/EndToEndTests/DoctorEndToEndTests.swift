import Foundation
import TestSupport
import XCTest

/// `memoapp doctor` on the data home: each problem is made for real (a
/// chmod, a file in the way, a leftover) and must be found, with its fix.
final class DoctorEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    func testHealthyHomeIsAllWellEvenBeforeOnboarding() {
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 0, "\(outcome.document)")
        XCTAssertEqual(outcome.document["ok"] as? Bool, true)
        XCTAssertEqual(outcome.document["problem_count"] as? Int, 0)
        XCTAssertEqual(outcome.document["home"] as? String, app.home)
        let names = outcome.checks.compactMap { $0["name"] as? String }
        for expected in ["data_home", "permissions", "database", "integrity", "foreign_keys", "migrations", "schema",
                         "audio_library", "voice_library", "temporary_files"] {
            XCTAssertTrue(names.contains(expected), "no \(expected) check in \(names)")
            XCTAssertEqual(outcome.status(of: expected), "ok", expected)
        }
        let text = app.run("doctor")
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.hasSuffix("All is well.\n"), text.stdout)
    }

    func testHealthyHomeWithDataIsAllWell() {
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", "a", "--tag", "x").status, 0)
        XCTAssertEqual(app.run("todo", "add", "b").status, 0)
        XCTAssertEqual(app.run("todo", "done", "1", "2").status, 0)
        XCTAssertEqual(app.run("memo", "add", "메모", "--tag", "y").status, 0)
        XCTAssertEqual(app.run("timer", "start", "5m").status, 0)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 0, "\(outcome.failingChecks): \(outcome.document)")
    }

    func testAHomeNotMadeYetIsTheStateBeforeFirstUseNotAProblem() {
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 0, "\(outcome.document)")
        XCTAssertEqual(outcome.failingChecks, [])
        XCTAssertEqual(outcome.status(of: "data_home"), "ok")
        XCTAssertEqual(outcome.status(of: "database"), "skipped")
        XCTAssertEqual(outcome.status(of: "integrity"), "skipped")
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "doctor created the data home")
        let text = app.run("doctor")
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("\(app.home) does not exist yet: memoapp makes it on first use"), text.stdout)
        XCTAssertTrue(text.stdout.contains("memoapp has not been used here yet"), text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("All is well.\n"), text.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "doctor created the data home")
    }

    func testHomeThatIsAFileIsAProblem() throws {
        try Data("plain".utf8).write(to: URL(fileURLWithPath: app.home))
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["data_home"])
        XCTAssertTrue(outcome.problems(of: "data_home").first?.message.contains("not a folder") ?? false)
    }

    func testLoosePermissionsAreEachReportedWithTheirChmod() throws {
        app.onboard()
        try setMode(app.home, 0o755)
        try setMode(app.databasePath, 0o644)
        _ = FileManager.default.createFile(atPath: app.databasePath + "-wal", contents: nil,
                                       attributes: [.posixPermissions: 0o666])
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["permissions"])
        let problems = outcome.problems(of: "permissions")
        XCTAssertEqual(problems.count, 3, "\(problems)")
        XCTAssertTrue(problems.contains { $0.message.contains("0755") && $0.fix == "chmod 700 \(app.home)" }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.message.contains("0644") && $0.fix == "chmod 600 \(app.databasePath)" },
                      "\(problems)")
        XCTAssertTrue(problems.contains { $0.message.contains("0666") && $0.fix == "chmod 600 \(app.databasePath)-wal" },
                      "\(problems)")

        try setMode(app.home, 0o700)
        try setMode(app.databasePath, 0o600)
        // SQLite removes the -wal when doctor's connection closes.
        if FileManager.default.fileExists(atPath: app.databasePath + "-wal") {
            try setMode(app.databasePath + "-wal", 0o600)
        }
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testTooStrictHomeIsAProblemToo() throws {
        app.onboard()
        try setMode(app.home, 0o500)
        defer { try? setMode(app.home, 0o700) }
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.problems(of: "permissions").contains { $0.message.contains("0500") })
    }

    func testDatabaseThatIsAFolderIsReported() throws {
        try FileManager.default.createDirectory(atPath: app.databasePath, withIntermediateDirectories: true)
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 74)
        XCTAssertEqual(outcome.status(of: "permissions"), "problem")
        XCTAssertEqual(outcome.status(of: "database"), "problem")
    }

    func testEditorFileOfAGoneProcessIsALeftoverAndALiveOneIsNot() throws {
        app.onboard()
        // A pid that cannot be running (above the kernel's pid_max) and one
        // that runs but is not memoapp: both files were left behind.
        let gone = app.home + "/.memo-edit-99999999-a1b2c3.txt"
        let notMemoapp = app.home + "/.memo-edit-\(getpid())-d4e5f6.txt"
        for path in [gone, notMemoapp] {
            _ = FileManager.default.createFile(atPath: path, contents: Data("draft".utf8))
        }
        let outcome = app.doctor()
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.failingChecks, ["temporary_files"])
        let problems = outcome.problems(of: "temporary_files")
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.contains { $0.message.hasPrefix(gone) && $0.fix.hasSuffix("rm \(gone)") }, "\(problems)")

        try FileManager.default.removeItem(atPath: gone)
        try FileManager.default.removeItem(atPath: notMemoapp)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testMemoEditWhileTheEditorIsOpenIsNotALeftover() throws {
        app.onboard()
        XCTAssertEqual(app.run("memo", "add", "first").status, 0)
        // The "editor" runs doctor while memoapp waits for it, then saves.
        let report = folder.appending("doctor-during-edit.json")
        let editor = folder.appending("editor.sh")
        try """
            #!/bin/sh
            '\(Memoapp.binaryPath)' doctor --json > '\(report)'
            echo edited > "$1"
            """.write(toFile: editor, atomically: true, encoding: .utf8)
        try setMode(editor, 0o755)
        let edited = app.run(["memo", "edit", "1"], environment: ["EDITOR": editor])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let checks = document?["checks"] as? [[String: Any]] ?? []
        let temporary = checks.first { $0["name"] as? String == "temporary_files" }
        XCTAssertEqual(temporary?["status"] as? String, "ok", "\(temporary ?? [:])")
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testTextReportSaysWhatIsWrongAndTheFixInKoreanToo() throws {
        app.onboard()
        try setMode(app.databasePath, 0o640)
        let english = app.run("doctor")
        XCTAssertEqual(english.status, 1)
        XCTAssertTrue(english.stdout.contains("PROBLEM  permissions"), english.stdout)
        XCTAssertTrue(english.stdout.contains("fix: chmod 600 \(app.databasePath)"), english.stdout)
        XCTAssertTrue(english.stdout.hasSuffix("1 problem found.\n"), english.stdout)
        let korean = app.run("doctor", "--lang", "ko")
        XCTAssertEqual(korean.status, 1)
        XCTAssertTrue(korean.stdout.contains("문제"), korean.stdout)
        XCTAssertTrue(korean.stdout.contains("해결: chmod 600"), korean.stdout)
        XCTAssertTrue(korean.stdout.contains("문제 1개를 찾았습니다."), korean.stdout)
    }

    func testHelpAnswersWithoutTouchingTheHome() {
        let help = app.run("doctor", "--help")
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: memoapp doctor"), help.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
    }
}
