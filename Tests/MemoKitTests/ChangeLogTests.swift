import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import Timers
import XCTest

/// The change log: the database's triggers log every write of an item table,
/// whoever makes it; a reader reads from where it stopped; the log stays
/// bounded; bulk writes log one `everything` entry.
final class ChangeLogTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var workspace: Workspace!
    private var connection: Connection!

    override func setUpWithError() throws {
        workspace = Workspace(home: DataHome(path: folder.appending("home")))
        connection = try workspace.database()
    }

    override func tearDown() {
        connection = nil
        workspace = nil
    }

    private func entries(after position: ChangeLog.Position) throws -> [ChangeLog.Entry] {
        guard case let .changes(entries, _) = try ChangeLog.changes(after: position, limit: 100, in: connection) else {
            XCTFail("the changes after \(position) cannot be read one by one")
            return []
        }
        return entries
    }

    private func pausedRows() throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM item_changes_paused") { $0.int(0) } ?? -1
    }

    private func summary(_ entries: [ChangeLog.Entry]) -> [String] {
        entries.map { "\($0.kind?.rawValue ?? "-") \($0.itemID) \($0.action.rawValue)" }
    }

    func testEveryWriteOfAnItemTableIsLoggedWithItsItem() throws {
        let start = try ChangeLog.newestPosition(in: connection)
        let todos = try workspace.todoStore()
        let todo = try todos.add(NewTodo(title: "milk", note: nil, priority: nil, tags: [], due: nil))
        _ = try todos.markDone(ids: [todo.id])
        let memo = try workspace.memoStore().add(NewMemo(text: "a memo"))
        _ = try workspace.memoStore().remove(ids: [memo.id])
        let timers = try workspace.timerStore()
        let stopwatch = try timers.start(duration: nil, label: "run")
        _ = try timers.apply(.lap, toTimer: stopwatch.timer.id)
        let logged = summary(try entries(after: start))
        XCTAssertEqual(Array(logged.prefix(4)), ["todo 1 created", "todo 1 changed", "memo 1 created", "memo 1 removed"])
        // A timer is logged as its row and as each of its spans and laps.
        XCTAssertEqual(logged.first { $0.hasPrefix("timer") }, "timer 1 created")
        XCTAssertTrue(logged.dropFirst(4).allSatisfy { $0.hasPrefix("timer 1 ") }, "\(logged)")
        XCTAssertEqual(logged.last, "timer 1 changed", "the lap")
    }

    func testAReaderGetsOnlyWhatCameAfterItsPosition() throws {
        let todos = try workspace.todoStore()
        _ = try todos.add(NewTodo(title: "before", note: nil, priority: nil, tags: [], due: nil))
        let position = try ChangeLog.newestPosition(in: connection)
        XCTAssertEqual(try entries(after: position), [])
        _ = try todos.add(NewTodo(title: "after", note: nil, priority: nil, tags: [], due: nil))
        guard case let .changes(entries, next) = try ChangeLog.changes(after: position, limit: 10, in: connection) else {
            return XCTFail("not read one by one")
        }
        XCTAssertEqual(summary(entries), ["todo 2 created"])
        XCTAssertEqual(next, try ChangeLog.newestPosition(in: connection))
    }

    func testUndoIsLoggedAndTheLogIsNoStepOfTheHistory() throws {
        let history = try workspace.undoHistory()
        let todos = try workspace.todoStore()
        let todo = try history.record("add") { try todos.add(NewTodo(title: "x", note: nil, priority: nil, tags: [], due: nil)) }
        let afterAdd = try ChangeLog.newestPosition(in: connection)
        XCTAssertEqual(try history.undo().description, "add")
        XCTAssertEqual(summary(try entries(after: afterAdd)), ["todo \(todo.id) removed"])
        // The undo history logs the items, not the log: nothing is left to
        // undo, and undoing did not remove the entry of the add.
        XCTAssertThrowsError(try history.undo())
        let loggedTables = try connection.query("SELECT DISTINCT table_name FROM undo_rows") { $0.string(0) }
        XCTAssertFalse(loggedTables.contains("item_changes"))
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM item_changes WHERE action = 'created'") { $0.int(0) }, 1)
    }

    func testTheLogKeepsItsNewestEntriesAndAReaderLeftBehindStartsAgain() throws {
        let todos = try workspace.todoStore()
        _ = try todos.add(NewTodo(title: "first", note: nil, priority: nil, tags: [], due: nil))
        let behind = try ChangeLog.newestPosition(in: connection)
        let count = ChangeLog.keptEntries + 2 * ChangeLog.pruneInterval
        try connection.writeTransaction {
            try connection.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO todos (title, created_at, updated_at) SELECT 'bulk ' || i, 0, 0 FROM n
                """, count)
        }
        let (kept, oldest, newest) = try XCTUnwrap(connection.queryFirst(
            "SELECT count(*), min(seq), max(seq) FROM item_changes") { ($0.int64(0), $0.int64(1), $0.int64(2)) })
        XCTAssertEqual(newest, count + 1)
        XCTAssertGreaterThanOrEqual(kept, ChangeLog.keptEntries)
        XCTAssertLessThan(kept, ChangeLog.keptEntries + ChangeLog.pruneInterval)
        XCTAssertEqual(oldest, newest - kept + 1, "cut at the old end only")
        XCTAssertEqual(try ChangeLog.changes(after: behind, limit: Int(count) * 2, in: connection),
                       .startAgain(try ChangeLog.newestPosition(in: connection)))
    }

    func testMoreChangesThanTheLimitAreToldAsStartAgain() throws {
        let position = try ChangeLog.newestPosition(in: connection)
        let todos = try workspace.todoStore()
        for title in ["a", "b", "c"] { _ = try todos.add(NewTodo(title: title, note: nil, priority: nil, tags: [], due: nil)) }
        XCTAssertEqual(try ChangeLog.changes(after: position, limit: 2, in: connection),
                       .startAgain(try ChangeLog.newestPosition(in: connection)))
        guard case let .changes(entries, _) = try ChangeLog.changes(after: position, limit: 3, in: connection) else {
            return XCTFail("three changes within a limit of three")
        }
        XCTAssertEqual(entries.count, 3)
    }

    func testABulkWriteLogsOneEntryAndTheLogGoesOnAfterIt() throws {
        let position = try ChangeLog.newestPosition(in: connection)
        try connection.writeTransaction {
            try ChangeLog.recordingEverything(in: connection) {
                for index in 1...50 {
                    try connection.execute("INSERT INTO memos (text, created_at, updated_at) VALUES (?, 0, 0)", "memo \(index)")
                }
            }
        }
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM item_changes") { $0.int(0) }, 1)
        XCTAssertEqual(try ChangeLog.changes(after: position, limit: 100, in: connection),
                       .startAgain(try ChangeLog.newestPosition(in: connection)))
        XCTAssertEqual(try pausedRows(), 0, "the pause ended with the bulk write")
        XCTAssertEqual(try SchemaCheck.differences(in: connection), [])
        _ = try workspace.memoStore().add(NewMemo(text: "one more"))
        XCTAssertEqual(try connection.queryFirst("SELECT action FROM item_changes ORDER BY seq DESC") { $0.string(0) }, "created")
    }

    func testAFailedBulkWriteLeavesTheLogOnForTheRestOfItsTransaction() throws {
        struct Failure: Error {}
        let position = try ChangeLog.newestPosition(in: connection)
        try connection.writeTransaction {
            XCTAssertThrowsError(try ChangeLog.recordingEverything(in: connection) { throw Failure() })
            _ = try workspace.memoStore().add(NewMemo(text: "after the failure"))
        }
        XCTAssertEqual(try pausedRows(), 0)
        XCTAssertEqual(summary(try entries(after: position)), ["memo 1 created"])
    }

    func testNestedBulkWritesPauseTheLogUntilTheOutermostEnds() throws {
        try connection.writeTransaction {
            try ChangeLog.recordingEverything(in: connection) {
                try ChangeLog.recordingEverything(in: connection) {
                    try connection.execute("INSERT INTO memos (text, created_at, updated_at) VALUES ('inner', 0, 0)")
                }
                try connection.execute("INSERT INTO memos (text, created_at, updated_at) VALUES ('outer', 0, 0)")
            }
        }
        XCTAssertEqual(try connection.query("SELECT action FROM item_changes") { $0.string(0) }, ["everything"])
    }

    func testTheLogsEntriesAreWrittenByTheUndoTriggersAlone() throws {
        // One trigger per table and event parsed at every start, not two.
        // The log's own: its pruning, and the revisions it gives the items.
        let own = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'item_changes_*' ORDER BY name") {
            $0.string(0)
        }
        XCTAssertEqual(own, ["item_changes_pruned", "item_changes_revise"])
        for logged in ChangeLog.loggedTables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                let sql = try connection.queryFirst("SELECT sql FROM sqlite_master WHERE name = ?",
                                                    "undo_\(logged.name)_\(event.lowercased())") { $0.string(0) }
                XCTAssertEqual(sql?.contains("INSERT INTO item_changes"), logged.events.contains(event), "\(logged.name) \(event)")
            }
        }
    }

    func testAHomeOfTheLogsOwnTriggersMovesThemIntoTheUndoTriggersAndLogsEachWriteOnce() throws {
        // A home memoapp made before changes.2: the log had triggers of its own.
        var older = Migrator()
        older.register(Schema.migrator.migrations.filter { $0.name != "changes.2-in-undo-triggers" })
        let path = folder.appending("older.db")
        let oldConnection = try MemoDatabase.connect(path)
        try older.apply(to: oldConnection)
        XCTAssertEqual(try oldConnection.queryFirst(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'item_changes_*'") { $0.int(0) },
            15 + 1, "the log's own fourteen and its pruning, and the revisions' trigger")
        try Schema.migrator.apply(to: oldConnection)
        XCTAssertEqual(try SchemaCheck.differences(in: oldConnection), [])
        XCTAssertEqual(Set(try SchemaCheck.objects(in: oldConnection)), Set(try SchemaCheck.objects(in: connection)))
        try oldConnection.execute("INSERT INTO todos (title, created_at, updated_at) VALUES ('once', 0, 0)")
        XCTAssertEqual(try oldConnection.query("SELECT kind, item_id, action FROM item_changes") {
            "\($0.string(0)) \($0.int(1)) \($0.string(2))"
        }, ["todo 1 created"])
    }

    func testAReplacedLogIsToldAsStartAgainEvenUnderTheSameNumber() throws {
        let todos = try workspace.todoStore()
        _ = try todos.add(NewTodo(title: "one", note: nil, priority: nil, tags: [], due: nil))
        let position = try ChangeLog.newestPosition(in: connection)
        // What a restore does to the log: another database's entries, here
        // one with the same number as the reader's newest.
        try connection.execute("DELETE FROM item_changes")
        try connection.execute("INSERT INTO item_changes (seq, kind, item_id, action) VALUES (?, 'memo', 7, 'created')",
                               position.newest?.seq ?? 0)
        guard case .startAgain = try ChangeLog.changes(after: position, limit: 100, in: connection) else {
            return XCTFail("a different entry under the remembered number went unnoticed")
        }
    }

    func testAnImportIntoAnEmptyHomeLogsOneEntry() throws {
        let source = Workspace(home: DataHome(path: folder.appending("source")))
        for index in 1...20 {
            _ = try source.todoStore().add(NewTodo(title: "to-do \(index)", note: nil, priority: nil, tags: [], due: nil))
            _ = try source.memoStore().add(NewMemo(text: "memo \(index)"))
        }
        let document = try ExportDocument.make(connection: source.database(), exportedAt: Timestamp(secondsSince1970: 0))
        let position = try ChangeLog.newestPosition(in: connection)
        _ = try DocumentImport(workspace: workspace, audioFolders: []).run(.bytes(document.serializedBytes), name: "export")
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM item_changes WHERE seq > ?", position.newest?.seq ?? 0) {
            $0.int(0)
        }, 1)
        XCTAssertEqual(try ChangeLog.changes(after: position, limit: 100, in: connection),
                       .startAgain(try ChangeLog.newestPosition(in: connection)))
    }

    func testDoctorsSchemaCheckKnowsTheTriggersThatLog() throws {
        XCTAssertEqual(try SchemaCheck.differences(in: connection), [])
        // The undo trigger made again without the log's INSERT, as before changes.2.
        try connection.executeScript("""
            DROP TRIGGER undo_memos_insert;
            CREATE TRIGGER undo_memos_insert AFTER INSERT ON memos BEGIN
            INSERT INTO undo_rows (step, table_name, operation, value_count, v1)
            SELECT step, 'memos', 'insert', 1, new.id FROM undo_recording;
            END;
            DROP TRIGGER item_changes_pruned;
            """)
        let differences = try SchemaCheck.differences(in: connection).map(\.description.en)
        XCTAssertEqual(Set(differences), [
            "trigger \"undo_memos_insert\" on memos is not defined as memoapp defines it",
            "trigger \"item_changes_pruned\" on item_changes is missing",
        ])
    }

    func testAHomeWhoseOnlyRowsAreLogEntriesHasNoDataToReplace() throws {
        let todos = try workspace.todoStore()
        let todo = try todos.add(NewTodo(title: "gone", note: nil, priority: nil, tags: [], due: nil))
        _ = try todos.remove(ids: [todo.id])
        XCTAssertGreaterThan(try connection.queryFirst("SELECT count(*) FROM item_changes") { $0.int(0) } ?? 0, 0)
        let manifest = try BackupManifest.parse(Array("\(String(repeating: "0", count: 32))  memoapp.db\n".utf8), name: "MANIFEST")
        XCTAssertFalse(HomeState.of(workspace.home, restoring: manifest).hasData)
    }
}
