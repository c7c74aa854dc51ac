import Foundation
@testable import MemoCLI
import MemoKit
import TestSupport
import XCTest

/// Which data home a command uses, and the homes it must refuse to use.
final class DataHomeChoiceTests: XCTestCase {
    private let app = TestApp()
    private var defaultHome: String { app.directory.appending(".local/share/memoapp") }

    func testAnEmptyHomeIsAUsageErrorNeverTheDefault() throws {
        // A backup to restore, so that a restore --force would replace something.
        let backupSource = TestApp()
        XCTAssertEqual(backupSource.run("onboard", "skip").status, 0)
        let backup = backupSource.directory.appending("backup")
        XCTAssertEqual(backupSource.run("backup", backup).status, 0)

        for arguments in [["--home", "", "restore", backup, "--force"], ["--home=", "todo", "list"],
                          ["todo", "list", "--home="]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("memoapp: --home needs a folder; it is empty\n"), run.stderr)
        }
        app.environment["MEMOAPP_HOME"] = ""
        let unset = app.run("restore", backup, "--force")
        XCTAssertEqual(unset.status, 64, unset.stderr)
        XCTAssertEqual(unset.stderr,
                       "memoapp: MEMOAPP_HOME is set but empty: set it to a folder, or unset it for the default\n")
        XCTAssertEqual(app.run("restore", backup, "--force", "--json").jsonError()?.code, "usage")
        XCTAssertFalse(FileManager.default.fileExists(atPath: defaultHome), "the default home was not touched")
        // Help needs no data home.
        XCTAssertEqual(app.run("todo", "--help").status, 0)
        XCTAssertEqual(app.run("--version").status, 0)
    }

    func testWithoutHOMETheHomeComesFromThePasswordDatabase() throws {
        app.environment = [:]
        let run = app.run("doctor", "--json")  // reads only: nothing is made in the real home
        let home = try XCTUnwrap(run.jsonObject()["home"] as? String)
        let account = try XCTUnwrap(DataHome.accountHome())
        XCTAssertEqual(home, account + "/.local/share/memoapp")
        XCTAssertFalse(home.hasPrefix("//"), home)
    }

    func testAHomeThatIsAFileIsAStorageErrorThatSaysSo() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: app.homePath, contents: Data("x".utf8)))
        for arguments in [["todo", "list"], ["onboard", "status"], ["todo", "add", "x"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr, "memoapp: the data home \(app.homePath) exists and is not a folder; run 'memoapp doctor'\n")
        }
    }

    func testAnotherUsersHomeIsAStorageErrorThatSaysSo() throws {
        guard geteuid() == 0 else { throw XCTSkip("making a folder another user's needs root") }
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        XCTAssertEqual(chown(app.homePath, 65534, 65534), 0)
        for arguments in [["todo", "list"], ["todo", "add", "x"], ["onboard", "status"]] {
            let run = app.run(arguments)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("belongs to user id 65534, not to you (0)"), run.stderr)
        }
    }
}
