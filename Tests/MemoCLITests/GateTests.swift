import Foundation
import MemoCore
@testable import MemoCLI
import SQLite
import XCTest

/// The onboarding gate, held for commands the shipped tree has never seen.
final class GateTests: XCTestCase {
    /// Which test-only command bodies ran.
    private final class RunLog {
        var names: [String] = []
    }

    private var log: RunLog!
    private var app: TestApp!

    override func setUp() {
        super.setUp()
        let log = RunLog()
        self.log = log
        // A main command: gated by default, writes to the database when it runs.
        let probe = Command(
            "probe", abstract: Localized(en: "a gated test command", ko: "테스트 명령"),
            subcommands: [Command("deep", abstract: Localized(verbatim: "deep"), body: { _, _ in
                log.names.append("probe deep")
            })],
            body: { context, _ in
                log.names.append("probe")
                let database = try context.workspace.database()
                try database.execute("CREATE TABLE IF NOT EXISTS probe_runs (at REAL)")
                try database.execute("INSERT INTO probe_runs VALUES (?)", context.clock.now().secondsSince1970)
                try context.emit(json: .object([("ran", .bool(true))]), text: "probe ran")
            })
        // Like doctor or restore: runs before onboarding, and so do its subcommands.
        let tool = Command(
            "tool", abstract: Localized(verbatim: "always runs"),
            subcommands: [Command("sub", abstract: Localized(verbatim: "sub"), body: { _, _ in
                log.names.append("tool sub")
            })],
            access: .alwaysRuns,
            body: { context, _ in
                log.names.append("tool")
                try context.emit(json: .object([]), text: "tool ran")
            })
        app = TestApp(extraCommands: [probe, tool])
    }

    override func tearDown() {
        app = nil
        log = nil
        super.tearDown()
    }

    private func probeRuns() throws -> Int {
        guard FileManager.default.fileExists(atPath: app.databasePath) else { return 0 }
        let connection = try Connection(path: app.databasePath)
        let hasTable = try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE name = 'probe_runs'") { _ in true } ?? false
        return hasTable ? try connection.queryFirst("SELECT count(*) FROM probe_runs") { $0.int(0) } ?? 0 : 0
    }

    // MARK: Before onboarding

    func testAGatedCommandExitsThreeBeforeOnboardingAndNeverRuns() throws {
        let run = app.run("probe")
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("memoapp: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("memoapp onboard"), run.stderr)
        XCTAssertEqual(log.names, [])
        XCTAssertFalse(app.homeExists, "the gate creates no data home")
    }

    func testTheGateSpeaksJSON() throws {
        let run = app.run("probe", "--json")
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        let error = run.jsonError()
        XCTAssertEqual(error?.code, "onboarding_required")
        XCTAssertTrue(error?.message.contains("memoapp onboard") ?? false)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one JSON document on one line")
        XCTAssertEqual(log.names, [])
        XCTAssertFalse(app.homeExists)
    }

    func testTheGateSpeaksKorean() throws {
        let run = app.run("--lang", "ko", "probe")
        XCTAssertEqual(run.status, 3)
        XCTAssertTrue(run.stderr.contains("온보딩"), run.stderr)
        XCTAssertTrue(run.stderr.contains("memoapp onboard"), run.stderr)
    }

    func testSubcommandsOfAGatedCommandAreGatedToo() throws {
        XCTAssertEqual(app.run("probe", "deep").status, 3)
        XCTAssertEqual(log.names, [])
    }

    func testTheGateHoldsWhenTheDatabaseExistsButOnboardingIsUnfinished() throws {
        XCTAssertEqual(app.run("onboard", "next").status, 0)
        XCTAssertTrue(app.homeExists)
        XCTAssertEqual(app.run("probe").status, 3)
        XCTAssertEqual(log.names, [])
        XCTAssertEqual(try probeRuns(), 0)
    }

    func testHelpForAGatedCommandAnswersBeforeOnboarding() throws {
        for arguments in [["probe", "--help"], ["probe", "deep", "-h"], ["--version", "probe"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stdout.isEmpty)
        }
        XCTAssertEqual(log.names, [])
        XCTAssertFalse(app.homeExists)
    }

    func testAUsageErrorOnAGatedCommandIsStillAUsageError() throws {
        XCTAssertEqual(app.run("probe", "--bogus").status, 64)
        XCTAssertEqual(log.names, [])
        XCTAssertFalse(app.homeExists)
    }

    func testAlwaysRunsCommandsAndTheirSubcommandsRunBeforeOnboarding() throws {
        XCTAssertEqual(app.run("tool").status, 0)
        XCTAssertEqual(app.run("tool", "sub").status, 0)
        XCTAssertEqual(log.names, ["tool", "tool sub"])
        XCTAssertFalse(app.homeExists, "a command that does not touch the database creates nothing")
    }

    func testOnboardCommandsRunBeforeOnboarding() throws {
        for arguments in [["onboard", "status"], ["onboard", "pages"], ["onboard", "show"], ["onboard"]] {
            XCTAssertEqual(app.run(arguments).status, 0, "\(arguments)")
        }
    }

    func testBareMemoappBeforeOnboardingNamesTheOnboardingAndExitsThree() throws {
        let run = app.run("--json")
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.jsonError()?.code, "onboarding_required")
        XCTAssertFalse(app.homeExists)
    }

    // MARK: After onboarding

    func testAGatedCommandRunsAfterOnboardSkip() throws {
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        let run = app.run("probe", "--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.jsonObject()["ran"] as? Bool, true)
        XCTAssertEqual(app.run("probe", "deep").status, 0)
        XCTAssertEqual(log.names, ["probe", "probe deep"])
        XCTAssertEqual(try probeRuns(), 1)
    }

    func testAGatedCommandRunsAfterStartFromTheLastPage() throws {
        XCTAssertEqual(app.run("onboard", "goto", "4").status, 0)
        XCTAssertEqual(app.run("onboard", "start").status, 0)
        XCTAssertEqual(app.run("probe").status, 0)
        XCTAssertEqual(app.run("probe").stdout, "probe ran\n")
        XCTAssertEqual(try probeRuns(), 2)
    }

    func testResetClosesTheGateAgain() throws {
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("probe").status, 0)
        XCTAssertEqual(app.run("onboard", "reset").status, 0)
        XCTAssertEqual(app.run("probe").status, 3)
        XCTAssertEqual(log.names, ["probe"])
        XCTAssertEqual(try probeRuns(), 1)
    }

    func testTheMainScreenShowsAfterOnboarding() throws {
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        let run = app.run("--json")
        XCTAssertEqual(run.status, 0, run.stderr)
        let home = run.jsonObject()["home"] as? [String: Any]
        XCTAssertEqual(home?["path"] as? String, app.homePath)
        XCTAssertEqual(home?["onboarded_at"] as? String, "2026-11-29T13:24:04.000Z")
    }
}
