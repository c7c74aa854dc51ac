import Foundation
import MemoCore
@testable import MemoKit
import TestSupport
import XCTest

/// The order in which the data home is chosen, and its file modes.
final class DataHomeTests: XCTestCase {
    func testResolutionOrder() throws {
        let everything = ["MEMOAPP_HOME": "/m", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        XCTAssertEqual(try DataHome.resolve(explicit: "/e", environment: everything).path, "/e")
        XCTAssertEqual(try DataHome.resolve(explicit: nil, environment: everything).path, "/m")
        XCTAssertEqual(try DataHome.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path,
                       "/x/memoapp")
        XCTAssertEqual(try DataHome.resolve(explicit: nil, environment: ["HOME": "/h"]).path, "/h/.local/share/memoapp")
    }

    func testAnEmptyChoiceIsAUsageErrorNotTheDefault() {
        let environment = ["MEMOAPP_HOME": "/m", "HOME": "/h"]
        XCTAssertThrowsError(try DataHome.resolve(explicit: "", environment: environment)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
        }
        XCTAssertThrowsError(try DataHome.resolve(explicit: nil, environment: ["MEMOAPP_HOME": "", "HOME": "/h"])) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
            XCTAssertEqual(($0 as? MemoError)?.message.en,
                           "MEMOAPP_HOME is set but empty: set it to a folder, or unset it for the default")
        }
    }

    func testAnEmptyOrRelativeXDGDataHomeIsSkipped() throws {
        for xdg in ["", "relative/dir"] {
            XCTAssertEqual(try DataHome.resolve(explicit: nil, environment: ["XDG_DATA_HOME": xdg, "HOME": "/h"]).path,
                           "/h/.local/share/memoapp")
        }
    }

    func testWithoutHOMETheAccountsHomeFolderIsUsed() throws {
        for environment in [[:], ["HOME": ""]] as [[String: String]] {
            XCTAssertEqual(try DataHome.resolve(explicit: nil, environment: environment, accountHome: { "/home/kim" }).path,
                           "/home/kim/.local/share/memoapp")
            XCTAssertThrowsError(try DataHome.resolve(explicit: nil, environment: environment, accountHome: { nil })) {
                XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
            }
        }
        // The real lookup finds this process's user (the tests run as someone with a passwd entry).
        let home = try XCTUnwrap(DataHome.accountHome())
        XCTAssertTrue(home.hasPrefix("/"), home)
        XCTAssertFalse(try DataHome.resolve(explicit: nil, environment: [:]).path.hasPrefix("//"))
    }

    func testAnotherUsersFolderIsRefusedAsStorage() throws {
        let directory = TemporaryDirectory()
        let home = DataHome(path: directory.appending("theirs"))
        try home.create()
        try home.checkUsable()
        if geteuid() == 0 {
            XCTAssertEqual(chown(home.path, 65534, 65534), 0)
        } else {
            throw XCTSkip("making a folder another user's needs root")
        }
        XCTAssertThrowsError(try home.checkUsable()) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .storage)
            XCTAssertEqual(($0 as? MemoError)?.message.en, "the data home \(home.path) belongs to user id 65534, not to you (0)")
        }
        XCTAssertThrowsError(try home.create())
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.databasePath))
    }

    func testPathsInside() {
        let home = DataHome(path: "/d")
        XCTAssertEqual(home.databasePath, "/d/memoapp.db")
        XCTAssertEqual(home.voiceDirectory, "/d/voice")
    }

    func testCreateMakesTheFolderAndItsParentsPrivate() throws {
        let directory = TemporaryDirectory()
        let home = DataHome(path: directory.appending("a/b/memoapp"))
        XCTAssertFalse(home.hasDatabase)
        try home.create()
        try home.create()  // a second time is fine
        try home.createDatabaseFile()
        XCTAssertTrue(home.hasDatabase)
        XCTAssertEqual(try mode(home.path), 0o700)
        XCTAssertEqual(try mode(home.databasePath), 0o600)
    }

    func testAFileWhereTheFolderShouldBeIsAStorageError() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("taken")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        XCTAssertThrowsError(try DataHome(path: path).create()) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .storage)
        }
        XCTAssertThrowsError(try DataHome(path: path + "/below").create()) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .storage)
        }
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}
