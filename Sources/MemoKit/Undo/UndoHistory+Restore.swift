import MemoCore
import Notes
import SQLite

/// A restore into an empty data home as one step of the history, logged as
/// what undoes it: emptying the tables again.
///
/// The triggers would log every restored row's key (2,350,000 rows for an
/// export of 2,000,000 items, an eighth of the import's time, kept in the
/// database until twenty later changes push the step out), to delete the
/// rows one by one. Since every table was empty before, the step is one row
/// per table instead, operation `empty`, holding how many rows the restore
/// left there: an undo deletes them all, and refuses (`invalid_state`, as
/// for any row changed since) when the count is no longer that, because a
/// write outside the history added or removed some.
extension UndoHistory {
    /// Runs `body`, which fills the item tables of a data home that had no
    /// items, inside the step being recorded, with the triggers' logging
    /// paused; then logs the step as the emptying of each table `body` filled.
    /// Outside a recording, runs `body` alone.
    public func recordAsEmptying<T>(_ body: () throws -> T) throws -> T {
        guard let step = currentStep() else { return try body() }
        for table in UndoSchema.loggedTables {
            let hasRows = try connection.queryFirst("SELECT EXISTS (SELECT 1 FROM \(quoted(table)))") { $0.bool(0) }
            precondition(hasRows == false, "recordAsEmptying needs empty tables; \(table) has rows")
        }
        try connection.execute("DELETE FROM undo_recording")
        // With nothing recording, the insert triggers would log nothing, but
        // each still runs for every row, and makes every INSERT one that
        // writes two tables: such a statement keeps a journal of its own, to
        // undo itself alone should it fail halfway. Set aside for the body
        // and put back with their own SQL, they cost neither. (They also
        // carry the change log's INSERTs, which callers pause around a bulk
        // write anyway: `ChangeLog.recordingEverything`.)
        let inserts = Set(UndoSchema.loggedTables.map { "undo_\($0)_insert" })
        let triggers = try connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name") {
            row in (name: row.string(0), sql: row.string(1))
        }.filter { inserts.contains($0.name) }
        for trigger in triggers { try connection.execute("DROP TRIGGER \(quoted(trigger.name))") }
        let result = try body()
        for trigger in triggers { try connection.execute(trigger.sql) }
        try connection.execute("INSERT INTO undo_recording (step) VALUES (?)", step)
        // Parents first: an undo reverts the step's rows newest first, so
        // children are emptied before their parents.
        for table in UndoSchema.loggedTables {
            let rows = try count(of: table)
            guard rows > 0 else { continue }
            try connection.execute("""
                INSERT INTO undo_rows (step, table_name, operation, value_count, v1) VALUES (?, ?, 'empty', 1, ?)
                """, step, table, rows)
        }
        return result
    }

    /// Reverts an `empty` row: deletes every row of `table` when it holds
    /// exactly the `expected` rows the restore left.
    func empty(_ table: String, expected: SQLiteValue, of step: UndoStep) throws {
        guard case let .integer(rows) = expected else { throw UndoHistory.damaged(step) }
        guard try count(of: table) == rows else { throw UndoHistory.changedSince(step) }
        // One change-log entry for the emptied table, not one per row.
        try ChangeLog.recordingEverything(in: connection) {
            if NotesArchive.tablesWithUIDs.contains(table) {
                try NotesArchive.deleteAll(from: table, in: connection)
            } else {
                try connection.execute("DELETE FROM \(quoted(table))")
            }
        }
    }

    private func count(of table: String) throws -> Int64 {
        try connection.queryFirst("SELECT count(*) FROM \(quoted(table))") { $0.int64(0) } ?? 0
    }
}
