import Foundation
import TestSupport
import XCTest

/// The onboarding through the built binary: every subcommand, JSON, exit codes.
final class OnboardingEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
    }

    func testWholeOnboardingThroughSubcommands() {
        var status = app.run("onboard", "status", "--json").object()
        XCTAssertEqual(status["current_page"] as? Int, 1)
        XCTAssertEqual(status["page_count"] as? Int, 4)
        XCTAssertEqual(status["completed"] as? Bool, false)
        XCTAssertTrue(status["completed_at"] is NSNull)

        XCTAssertEqual(app.run("onboard", "next", "--json").object()["current_page"] as? Int, 2)
        XCTAssertEqual(app.run("onboard", "next", "--json").object()["current_page"] as? Int, 3)
        XCTAssertEqual(app.run("onboard", "prev", "--json").object()["current_page"] as? Int, 2)
        XCTAssertEqual(app.run("onboard", "goto", "4", "--json").object()["current_page"] as? Int, 4)
        // Next on the last page goes nowhere, like a swipe with nothing beyond.
        XCTAssertEqual(app.run("onboard", "next", "--json").object()["current_page"] as? Int, 4)

        let started = app.run("onboard", "start", "--json")
        XCTAssertEqual(started.status, 0, started.stderr)
        status = started.object()
        XCTAssertEqual(status["completed"] as? Bool, true)
        let completedAt = status["completed_at"] as? String
        XCTAssertNotNil(completedAt.flatMap(documentTime), "RFC 3339: \(completedAt ?? "nil")")

        // Completion persists, with its first time.
        let again = app.run("onboard", "status", "--json").object()
        XCTAssertEqual(again["completed"] as? Bool, true)
        XCTAssertEqual(again["completed_at"] as? String, completedAt)
    }

    func testInterruptedOnboardingResumesOnItsPage() {
        app.run("onboard", "goto", "3")
        let shown = app.run("onboard")
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stdout.contains("○○●○"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("Miss nothing"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("memoapp onboard next"), shown.stdout)
    }

    func testStartBeforeTheLastPageIsRefusedWithExit5() {
        app.run("onboard", "goto", "2")
        let result = app.run("onboard", "start")
        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("page 2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("skip"), result.stderr)
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["completed"] as? Bool, false)

        let json = app.run("onboard", "start", "--json")
        XCTAssertEqual(json.status, 5)
        XCTAssertEqual(json.stdout, "")
        XCTAssertEqual(json.errorCode, "invalid_state")
    }

    func testGotoOutsideThePagesIsAUsageError() {
        for page in ["0", "5", "-1", "two", "1.5"] {
            let result = app.run("onboard", "goto", page)
            XCTAssertEqual(result.status, 64, "goto \(page): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("usage: memoapp onboard goto N"), result.stderr)
            XCTAssertTrue(result.stderr.contains("See 'memoapp onboard goto --help'"), result.stderr)
        }
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["current_page"] as? Int, 1)
    }

    func testSkipCompletesFromAnyPageAndResetClosesTheGateAgain() {
        app.run("onboard", "goto", "2")
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(app.run("--json").status, 0)
        let reset = app.run("onboard", "reset", "--json").object()
        XCTAssertEqual(reset["completed"] as? Bool, false)
        XCTAssertEqual(reset["current_page"] as? Int, 1)
        XCTAssertEqual(app.run([]).status, 3)
    }

    func testPagesListsFourPagesInBothLanguages() {
        let english = app.run("onboard", "pages", "--json").array()
        XCTAssertEqual(english.map { $0["index"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(english.first?["title"] as? String, "Today's to-dos")
        let korean = app.run("onboard", "pages", "--json", "--lang", "ko").array()
        XCTAssertEqual(korean.map { $0["title"] as? String },
                       ["오늘의 할일", "똑똑한 나만의 기록장", "하나라도 놓치지 않도록", "정확한 시간의 경과"])
        XCTAssertEqual(korean.last?["subtitle"] as? String, "타이머 기능으로 원하는 시간을 확인")
        let viaEnvironment = app.run(["onboard", "pages", "--json"], environment: ["LANG": "ko_KR.UTF-8"]).array()
        XCTAssertEqual(viaEnvironment.first?["title"] as? String, "오늘의 할일")
    }

    func testShowPrintsTheTourAndChangesNothing() {
        app.run("onboard", "goto", "2")
        let tour = app.run("onboard", "show")
        XCTAssertEqual(tour.status, 0)
        for title in ["Today's to-dos", "Your own smart notebook", "Miss nothing", "Time, precisely"] {
            XCTAssertTrue(tour.stdout.contains(title), tour.stdout)
        }
        XCTAssertEqual(app.run("onboard", "status", "--json").object()["current_page"] as? Int, 2)
        app.onboard()
        XCTAssertEqual(app.run("onboard", "show").status, 0)
    }

    func testBareMemoappRoutesBySplashToOnboardingOrMain() {
        let before = app.run([])
        XCTAssertEqual(before.status, 3)
        XCTAssertTrue(before.stdout.contains("memoapp"), before.stdout)
        XCTAssertTrue(before.stderr.contains("memoapp onboard"), before.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "the gate created the data home")

        app.onboard()
        let after = app.run([])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.contains("memoapp"), after.stdout)
    }

    func testHelpAndVersionNeverCreateTheDataHome() {
        for arguments in [["--help"], ["-h"], ["onboard", "--help"], ["onboard", "goto", "--help"],
                          ["--version"], ["onboard", "start", "-h"], ["--version", "--json"]] {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
        XCTAssertTrue(app.run("--version").stdout.hasPrefix("memoapp "))
    }

    func testDataHomeAndDatabaseAreCreatedPrivate() throws {
        XCTAssertEqual(app.run("onboard", "status").status, 0)
        let homeMode = try FileManager.default.attributesOfItem(atPath: app.home)[.posixPermissions] as? Int
        let databaseMode = try FileManager.default.attributesOfItem(atPath: app.home + "/memoapp.db")[.posixPermissions] as? Int
        XCTAssertEqual(homeMode, 0o700)
        XCTAssertEqual(databaseMode, 0o600)
    }

    func testDataHomeChoiceFollowsTheContract() {
        let explicit = folder.appending("explicit")
        let xdg = folder.appending("xdg")
        var bare = Memoapp(home: app.home)
        bare.environment.removeValue(forKey: "MEMOAPP_HOME")
        bare.environment["XDG_DATA_HOME"] = xdg
        XCTAssertEqual(bare.run("onboard", "status").status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: xdg + "/memoapp/memoapp.db"))
        XCTAssertEqual(app.run("onboard", "status", "--home", explicit).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: explicit + "/memoapp.db"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
    }
}

/// `memoapp help` answers before onboarding, like `--help`.
final class HelpCommandEndToEndTests: XCTestCase {
    func testHelpCommandMatchesTheHelpFlagAndRefusesUnknownCommands() {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        let viaCommand = app.run("help", "onboard", "goto")
        XCTAssertEqual(viaCommand.status, 0, viaCommand.stderr)
        XCTAssertEqual(viaCommand.stdout, app.run("onboard", "goto", "--help").stdout)
        XCTAssertEqual(app.run("help").stdout, app.run("--help").stdout)
        let unknown = app.run("help", "todo", "fly")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown command 'todo fly'"), unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home))
    }
}
