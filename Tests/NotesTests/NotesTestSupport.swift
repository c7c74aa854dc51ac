import Foundation
import MemoCore
import Notes
import SQLite
import XCTest

/// A clock the test moves by hand.
final class ManualClock: WallClock, @unchecked Sendable {
    var current: Timestamp

    init(_ seconds: Double) {
        current = Timestamp(secondsSince1970: seconds)
    }

    func now() -> Timestamp { current }

    func advance(_ seconds: Double) {
        current = current.adding(seconds: seconds)
    }
}

/// 2026-11-29 13:00:00 UTC, a Sunday: 22:00 the same Sunday in Seoul.
let sundayAfternoonUTC: Double = 1_795_957_200

/// Korea: UTC+9, no daylight-saving time.
let seoul = FixedOffsetCalendar(offsetSeconds: 9 * 3600)

/// Each test gets a fresh directory and a database with the Notes schema.
class NotesTestCase: XCTestCase {
    var directory: String!
    var connection: Connection!
    var clock: ManualClock!

    override func setUpWithError() throws {
        try super.setUpWithError()
        NotesSchema.registerSearchTokenizer()
        directory = NSTemporaryDirectory() + "notes-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        connection = try openDatabase()
        clock = ManualClock(sundayAfternoonUTC)
    }

    override func tearDownWithError() throws {
        connection = nil
        try? FileManager.default.removeItem(atPath: directory)
        try super.tearDownWithError()
    }

    /// A new connection to the test's database, migrated.
    func openDatabase() throws -> Connection {
        let connection = try Connection(path: directory + "/memoapp.db")
        var migrator = Migrator()
        migrator.register(NotesSchema.migrations)
        try migrator.apply(to: connection)
        return connection
    }

    func makeTodoStore() -> TodoStore {
        TodoStore(connection: connection, clock: clock, calendar: seoul)
    }

    func makeMemoStore() -> MemoStore {
        MemoStore(connection: connection, clock: clock)
    }

    /// Both search indexes agree with their content tables.
    func assertSearchIndexesIntact(file: StaticString = #filePath, line: UInt = #line) {
        for table in ["todos_search", "memos_search"] {
            XCTAssertNoThrow(try connection.execute("INSERT INTO \(table) (\(table)) VALUES ('integrity-check')"),
                             "\(table) out of step", file: file, line: line)
        }
    }

    /// The MemoError `body` throws, failing the test when it throws none.
    func memoError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        do {
            try body()
            XCTFail("expected a MemoError", file: file, line: line)
        } catch let error as MemoError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }
}
