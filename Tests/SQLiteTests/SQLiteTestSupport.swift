import Foundation
import SQLite
import TestSupport
import XCTest

/// SQLite's result codes, written out here so that the tests do not take them
/// from the code under test. https://www.sqlite.org/rescode.html
enum ResultCode {
    static let error: Int32 = 1
    static let busy: Int32 = 5
    static let corrupt: Int32 = 11
    static let cantOpen: Int32 = 14
    static let constraint: Int32 = 19
    static let range: Int32 = 25
    static let notADatabase: Int32 = 26
    static let constraintUnique: Int32 = 2067
    static let constraintForeignKey: Int32 = 787
}

/// The whole content of a file, or nil when it does not exist.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// A database made by "another program": its own application_id (0 for none),
/// a table with a row, and the rollback journal most programs use. Closed when
/// this returns, so its bytes are all in the main file.
func makeForeignDatabase(at path: String, applicationID: Int32, keepWAL: Bool = false) throws {
    let connection = try Connection(path: path, configuration: Configuration(applicationID: applicationID))
    try connection.executeScript("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Kim');")
    if !keepWAL {
        _ = try connection.queryFirst("PRAGMA journal_mode = DELETE") { $0.string(0) }
    }
}

/// Asserts that `body` throws a SQLiteError and hands it back for more checks.
@discardableResult
func assertThrowsSQLiteError<T>(_ body: @autoclosure () throws -> T, _ message: String = "",
                                file: StaticString = #filePath, line: UInt = #line) -> SQLiteError? {
    do {
        _ = try body()
        XCTFail("expected a SQLiteError. \(message)", file: file, line: line)
        return nil
    } catch let error as SQLiteError {
        return error
    } catch {
        XCTFail("expected a SQLiteError, got \(type(of: error)): \(error). \(message)", file: file, line: line)
        return nil
    }
}

/// A fresh temporary folder and a database path inside it, per test.
class SQLiteTestCase: XCTestCase {
    private(set) var directory: TemporaryDirectory!
    var databasePath: String { directory.appending("test.db") }

    // setUpWithError runs before setUp, and subclasses open connections in it.
    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    func makeConnection(busyTimeoutMilliseconds: Int32 = Configuration.defaultBusyTimeoutMilliseconds) throws -> Connection {
        // memoapp's values, as an example of a program that marks its files.
        var configuration = Configuration.memoappDatabase
        configuration.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        return try Connection(path: databasePath, configuration: configuration)
    }

    func count(_ table: String, in connection: Connection) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1
    }

    func tableExists(_ name: String, in connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name) { _ in true }
            ?? false
    }
}
