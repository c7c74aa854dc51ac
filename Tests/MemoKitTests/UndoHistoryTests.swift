import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import Timers
import XCTest

/// The undo history: each kind of change is reverted to the very values it
/// replaced, step by step back, within a bounded history.
final class UndoHistoryTests: XCTestCase {
    private struct Clock: WallClock {
        func now() -> Timestamp { Timestamp(secondsSince1970: 1_800_000_000.123456) }
    }

    private let folder = TemporaryDirectory()
    private var workspace: Workspace!
    private var history: UndoHistory!

    override func setUpWithError() throws {
        workspace = Workspace(home: DataHome(path: folder.appending("home")), clock: Clock())
        history = try workspace.undoHistory()
    }

    override func tearDown() {
        history = nil
        workspace = nil
    }

    func testEachKindOfToDoChangeIsUndoneToTheValuesItReplaced() throws {
        let todos = try workspace.todoStore()
        let first = try history.record("add") {
            try todos.add(NewTodo(title: "우유 사기", note: "2 L", priority: .high, tags: ["home", "shop"], due: nil))
        }
        _ = try history.record("add") { try todos.add(NewTodo(title: "second", note: nil, priority: nil, tags: [], due: nil)) }
        var changes = TodoChanges(title: "changed", addedTags: ["new"], removedTags: ["shop"])
        changes.note = .remove
        let changesToUndo: [(String, () throws -> Void)] = [
            ("done", { _ = try todos.markDone(ids: [first.id]) }),
            ("edit", { _ = try todos.edit(id: first.id, changes) }),
            ("rm", { _ = try todos.remove(ids: [first.id]) }),
            ("clear", {
                _ = try todos.markDone(ids: [first.id])
                _ = try todos.clearDone()
            }),
            ("add", { _ = try todos.add(NewTodo(title: "third", note: nil, priority: nil, tags: ["x"], due: nil)) }),
        ]
        for (name, change) in changesToUndo {
            let before = try rows()
            try history.record(name, change)
            XCTAssertNotEqual(try rows(), before, "\(name) changed something")
            XCTAssertEqual(try history.undo().description, name)
            XCTAssertEqual(try rows(), before, "\(name) undone")
            XCTAssertEqual(try searchIndexProblems(), [], "\(name): the search index follows")
        }
        XCTAssertEqual(try todos.todo(id: first.id).title, "우유 사기")
        _ = try history.record("done") { try todos.markDone(ids: [first.id]) }
        let done = try rows()
        _ = try history.record("reopen") { try todos.reopen(ids: [first.id]) }
        XCTAssertEqual(try history.undo().description, "reopen")
        XCTAssertEqual(try rows(), done)
    }

    func testUndoRestoresTheRepeatRuleAndTakesBackTheNextOccurrence() throws {
        let todos = try workspace.todoStore()
        let due = Due(instant: Timestamp(secondsSince1970: 1_800_100_000), hasTime: true)
        let watering = try history.record("add") {
            try todos.add(NewTodo(title: "water plants", due: due, repeatRule: RepeatRule(every: 1, unit: .week)))
        }
        var changes = TodoChanges()
        changes.repeatRule = .set(RepeatRule(every: 2, unit: .month))
        changes.repeatFrom = .done
        let before = try rows()
        _ = try history.record("edit") { try todos.edit(id: watering.id, changes) }
        XCTAssertEqual(try todos.todo(id: watering.id).repeatRule?.unit, .month)
        XCTAssertEqual(try history.undo().description, "edit")
        XCTAssertEqual(try rows(), before, "the rule's four columns are logged and written back")
        XCTAssertEqual(try todos.todo(id: watering.id).repeatRule, watering.repeatRule)

        let finished = try history.record("done") { try todos.finish(ids: [watering.id]) }
        XCTAssertEqual(finished.next.count, 1)
        XCTAssertEqual(try todos.todos(matching: TodoQuery(status: .all)).count, 2)
        XCTAssertEqual(try history.undo().description, "done")
        XCTAssertEqual(try rows(), before, "one undo reopens it and removes the occurrence it made")
        XCTAssertEqual(try searchIndexProblems(), [])
    }

    func testEachKindOfMemoAndTimerChangeIsUndone() throws {
        let memos = try workspace.memoStore()
        let memo = try history.record("add") { try memos.add(NewMemo(text: "회의록 초안", title: nil, tags: ["work"], isPinned: false)) }
        let timers = try workspace.timerStore()
        let countdown = try history.record("start") { try timers.start(duration: 1500, label: "집중") }
        let stopwatch = try history.record("start") { try timers.start(duration: nil, label: nil) }
        let changesToUndo: [(String, () throws -> Void)] = [
            ("edit", { _ = try memos.edit(id: memo.id, text: "new text", title: "title") }),
            ("pin", { _ = try memos.setPinned(true, id: memo.id) }),
            ("rm", { _ = try memos.remove(ids: [memo.id]) }),
            ("pause", { _ = try timers.apply(.pause, toTimer: countdown.timer.id) }),
            ("cancel", { _ = try timers.apply(.cancel, toTimer: countdown.timer.id) }),
            ("lap", { _ = try timers.apply(.lap, toTimer: stopwatch.timer.id) }),
            ("stop", { _ = try timers.apply(.stop, toTimer: stopwatch.timer.id) }),
            ("start", { _ = try timers.start(duration: 60, label: nil) }),
        ]
        for (name, change) in changesToUndo {
            let before = try rows()
            try history.record(name, change)
            XCTAssertNotEqual(try rows(), before, "\(name) changed something")
            try history.undo()
            XCTAssertEqual(try rows(), before, "\(name) undone")
            XCTAssertEqual(try searchIndexProblems(), [], "\(name): the search index follows")
        }
    }

    func testUndoGoesBackStepByStepNewestFirst() throws {
        let todos = try workspace.todoStore()
        var states = [try rows()]
        for title in ["a", "b", "c"] {
            _ = try history.record("add \(title)") { try todos.add(NewTodo(title: title, note: nil, priority: nil, tags: [], due: nil)) }
            states.append(try rows())
        }
        XCTAssertEqual(try history.steps().map(\.description), ["add c", "add b", "add a"])
        XCTAssertEqual(try history.steps().first?.createdAt, Clock().now(), "the time is kept exactly")
        for state in states.dropLast().reversed() {
            try history.undo()
            XCTAssertEqual(try rows(), state)
        }
        XCTAssertEqual(try history.steps(), [])
    }

    func testNothingToUndoIsInvalidStateAndChangesNothing() throws {
        XCTAssertThrowsError(try history.undo()) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .invalidState)
            XCTAssertEqual((error as? MemoError)?.message.en, "there is nothing to undo")
        }
    }

    func testAStepThatChangesNothingIsNotKept() throws {
        let todos = try workspace.todoStore()
        _ = try history.record("import nothing") { try todos.importTodos([], dryRun: false) }
        XCTAssertEqual(try history.steps(), [])
    }

    func testAFailedChangeLeavesNoStep() throws {
        let todos = try workspace.todoStore()
        XCTAssertThrowsError(try history.record("rm") { try todos.remove(ids: [42]) })
        XCTAssertEqual(try history.steps(), [])
        XCTAssertEqual(try workspace.database().queryFirst("SELECT count(*) FROM undo_steps") { $0.int(0) }, 0)
    }

    func testTheHistoryKeepsOnlyTheNewestSteps() throws {
        let small = UndoHistory(connection: try workspace.database(), voiceDirectory: workspace.home.voiceDirectory,
                                clock: Clock(), limit: 3)
        let todos = try workspace.todoStore()
        for index in 1...5 {
            _ = try small.record("add \(index)") { try todos.add(NewTodo(title: "t\(index)", note: nil, priority: nil, tags: [], due: nil)) }
        }
        XCTAssertEqual(try small.steps().map(\.description), ["add 5", "add 4", "add 3"])
        let database = try workspace.database()
        XCTAssertEqual(try database.queryFirst("SELECT count(*) FROM undo_steps") { $0.int(0) }, 3,
                       "the forgotten steps' changesets go with them")
        for _ in 1...3 { try small.undo() }
        XCTAssertThrowsError(try small.undo())
        XCTAssertEqual(try todos.todos(matching: TodoQuery()).map(\.title), ["t1", "t2"])
    }

    func testWritesOutsideTheHistoryAreNotLoggedAndAConflictChangesNothing() throws {
        let todos = try workspace.todoStore()
        let todo = try history.record("add") { try todos.add(NewTodo(title: "a", note: nil, priority: nil, tags: [], due: nil)) }
        _ = try history.record("edit") { try todos.edit(id: todo.id, TodoChanges(title: "b")) }
        _ = try todos.remove(ids: [todo.id])
        XCTAssertEqual(try history.steps().map(\.description), ["edit", "add"], "the removal is not in the history")
        let before = try rows()
        XCTAssertThrowsError(try history.undo()) { XCTAssertEqual(($0 as? MemoError)?.kind, .invalidState) }
        XCTAssertEqual(try rows(), before)
        XCTAssertEqual(try history.steps().count, 2, "the step stays")
    }

    func testTheUndoTablesAreMemoappsOwnSchemaAndEveryTableOfItemsIsLogged() throws {
        let database = try workspace.database()
        XCTAssertEqual(try SchemaCheck.differences(in: database), [])
        for table in UndoSchema.loggedTables {
            let triggers = try database.query(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE 'undo%' ORDER BY name",
                table) { $0.string(0) }
            XCTAssertEqual(triggers, ["undo_\(table)_delete", "undo_\(table)_insert", "undo_\(table)_update"])
            XCTAssertLessThanOrEqual(try UndoSchema.columns(of: table, in: database).count, UndoSchema.valueColumns)
        }
        // Every table of items is logged: a new one must be added to the list.
        // Access (tokens, sessions) is not an item: a revoked token stays revoked.
        // Nor is what `memoapp remind` told: an undo must not make it tell again.
        // Nor the change log, which an undo adds to like any other write.
        // Nor sync's records: an undo is a change sync then sends, not a
        // step back in what this home and its hub agreed on.
        let itemTables = try database.query("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'undo%' AND name NOT LIKE '%search%'
            AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'api%' AND name NOT LIKE 'sync\\_%' ESCAPE '\\'
            AND name NOT IN ('schema_migrations', 'onboarding_state', 'reminders_told', 'item_changes', 'item_changes_paused')
            ORDER BY name
            """) { $0.string(0) }
        XCTAssertEqual(Set(itemTables), Set(UndoSchema.loggedTables))
    }

    func testALoggedRowNamingAnotherTableIsRefusedAndChangesNothing() throws {
        let todos = try workspace.todoStore()
        _ = try history.record("add") { try todos.add(NewTodo(title: "a")) }
        _ = try history.record("add") { try todos.add(NewTodo(title: "b")) }
        // A database from elsewhere may hold any row in the log.
        let database = try workspace.database()
        try database.execute("""
            INSERT INTO undo_rows (step, table_name, operation, value_count, v1)
            SELECT max(id), 'onboarding_state', 'insert', 1, 1 FROM undo_steps
            """)
        let before = try rows()
        XCTAssertThrowsError(try history.undo()) { XCTAssertEqual(($0 as? MemoError)?.kind, .storage) }
        XCTAssertEqual(try rows(), before)
        XCTAssertEqual(try database.queryFirst("SELECT count(*) FROM onboarding_state") { $0.int(0) }, 1)
        XCTAssertEqual(try history.steps().count, 2, "nothing was undone")
    }

    func testTheTriggersLogNothingOutsideAStep() throws {
        _ = try workspace.todoStore().add(NewTodo(title: "not recorded"))
        XCTAssertEqual(try workspace.database().queryFirst("SELECT count(*) FROM undo_rows") { $0.int(0) }, 0)
    }

    // MARK: - Helpers

    /// Every row of every logged table, each value with its type, but the
    /// revision: an undo is a change like any other and gives the rows it
    /// writes back new revs (`revisionsOnlyGrow` checks those).
    private func rows() throws -> [String: [[SQLiteValue]]] {
        let database = try workspace.database()
        var result: [String: [[SQLiteValue]]] = [:]
        for table in UndoSchema.loggedTables {
            result[table] = try database.query("SELECT * FROM \(table) ORDER BY 1, 2") { row in
                (0..<row.columnCount).filter { row.columnName($0) != "rev" }.map { row.value($0) }
            }
        }
        return result
    }

    /// What FTS5's integrity check finds wrong with the search indexes.
    private func searchIndexProblems() throws -> [String] {
        let database = try workspace.database()
        var problems: [String] = []
        let indexes = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'", map: { $0.string(0) })
        if indexes.count != 2 { problems.append("expected the two search indexes, found \(indexes)") }
        for index in indexes {
            do {
                try database.execute("INSERT INTO \(index) (\(index), rank) VALUES ('integrity-check', 1)")
            } catch {
                problems.append("\(index): \(error)")
            }
        }
        return problems
    }
}

extension UndoHistoryTests {
    /// notes.10 added `remind_at` to `todos`; undo.2 made its triggers again,
    /// so an undo brings the reminder time back too.
    func testUndoRestoresAToDosReminderTime() throws {
        let todos = try workspace.todoStore()
        let remindAt = Timestamp(secondsSince1970: 1_800_003_600.5)
        let todo = try history.record("add") { try todos.add(NewTodo(title: "call", remindAt: remindAt)) }
        _ = try history.record("edit") { try todos.edit(id: todo.id, TodoChanges(remind: .remove)) }
        XCTAssertNil(try todos.todo(id: todo.id).remindAt)
        try history.undo()
        XCTAssertEqual(try todos.todo(id: todo.id).remindAt, remindAt)
        _ = try history.record("rm") { try todos.remove(ids: [todo.id]) }
        try history.undo()
        XCTAssertEqual(try todos.todo(id: todo.id).remindAt, remindAt)
    }

    /// undo.4 made the triggers again after notes.11's repeat columns: the
    /// triggers of undo.2 (remind_at) must not have been left in place, and
    /// one edit of both is taken back whole.
    func testUndoRestoresTheReminderAndTheRepeatRuleOfOneEdit() throws {
        let todos = try workspace.todoStore()
        let due = Due(instant: Timestamp(secondsSince1970: 1_800_100_000), hasTime: true)
        let remindAt = Timestamp(secondsSince1970: 1_800_096_400)
        let weekly = RepeatRule(every: 1, unit: .week)
        let todo = try history.record("add") {
            try todos.add(NewTodo(title: "water plants", due: due, repeatRule: weekly, remindAt: remindAt))
        }
        let stored = try todos.todo(id: todo.id)
        var changes = TodoChanges(remind: .set(Timestamp(secondsSince1970: 1_800_000_000)))
        changes.repeatRule = .remove
        _ = try history.record("edit") { try todos.edit(id: todo.id, changes) }
        XCTAssertNil(try todos.todo(id: todo.id).repeatRule)
        XCTAssertNotEqual(try todos.todo(id: todo.id).remindAt, remindAt)
        XCTAssertEqual(try history.undo().description, "edit")
        var undone = try todos.todo(id: todo.id)
        XCTAssertGreaterThan(undone.rev, stored.rev, "an undo is a change: a new revision")
        undone.rev = stored.rev
        XCTAssertEqual(undone, stored)
        XCTAssertEqual(try todos.todo(id: todo.id).remindAt, remindAt)
        XCTAssertEqual(try todos.todo(id: todo.id).repeatRule?.every, 1)
    }
}
