import Foundation
@testable import SQLite
import TestSupport
import XCTest

final class AutoincrementTests: XCTestCase {
    private func makeConnection(_ folder: TemporaryDirectory) throws -> Connection {
        let connection = try Connection(path: folder.appending("test.db"))
        try connection.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
        return connection
    }

    func testTheCounterIsTheLargestIDEverGiven() throws {
        let folder = TemporaryDirectory()
        let connection = try makeConnection(folder)
        XCTAssertEqual(try connection.lastAutoincrementID(of: "items"), 0)
        try connection.execute("INSERT INTO items (name) VALUES ('a')")
        try connection.execute("INSERT INTO items (name) VALUES ('b')")
        try connection.execute("DELETE FROM items")
        XCTAssertEqual(try connection.lastAutoincrementID(of: "items"), 2)
    }

    func testRaisingTheCounterMakesLaterIDsLargerAndNeverLowersIt() throws {
        let folder = TemporaryDirectory()
        let connection = try makeConnection(folder)
        try connection.writeTransaction { try connection.raiseAutoincrementID(of: "items", to: 40) }
        try connection.execute("INSERT INTO items (name) VALUES ('a')")
        XCTAssertEqual(connection.lastInsertRowID, 41)
        try connection.writeTransaction { try connection.raiseAutoincrementID(of: "items", to: 7) }
        XCTAssertEqual(try connection.lastAutoincrementID(of: "items"), 41)
        try connection.writeTransaction { try connection.raiseAutoincrementID(of: "items", to: 50) }
        try connection.execute("INSERT INTO items (name) VALUES ('b')")
        XCTAssertEqual(connection.lastInsertRowID, 51)
    }
}
