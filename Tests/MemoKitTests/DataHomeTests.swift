import Foundation
import MemoCore
@testable import MemoKit
import TestSupport
import XCTest

/// The order in which the data home is chosen, and its file modes.
final class DataHomeTests: XCTestCase {
    func testResolutionOrder() {
        let everything = ["MEMOAPP_HOME": "/m", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        XCTAssertEqual(DataHome.resolve(explicit: "/e", environment: everything).path, "/e")
        XCTAssertEqual(DataHome.resolve(explicit: nil, environment: everything).path, "/m")
        XCTAssertEqual(DataHome.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path,
                       "/x/memoapp")
        XCTAssertEqual(DataHome.resolve(explicit: nil, environment: ["HOME": "/h"]).path, "/h/.local/share/memoapp")
    }

    func testEmptyOrRelativeValuesAreSkipped() {
        let environment = ["MEMOAPP_HOME": "", "XDG_DATA_HOME": "relative/dir", "HOME": "/h"]
        XCTAssertEqual(DataHome.resolve(explicit: "", environment: environment).path, "/h/.local/share/memoapp")
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
