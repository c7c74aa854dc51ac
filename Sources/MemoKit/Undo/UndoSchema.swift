import SQLite

/// The undo history's tables and the triggers that fill them, after SQLite's
/// own technique (https://www.sqlite.org/undoredo.html): triggers on every
/// table holding the user's items log what each change undoes, in the same
/// transaction as the change.
///
/// Unlike that page's log, the history holds no SQL: a logged row is its
/// table, its kind and its values (`v1`…, each kept with its own type: JSON
/// would round the times' last digits, `quote()` cuts text at a NUL). Undoing
/// builds its statements from the live table's columns and binds the values,
/// so a database from elsewhere cannot make an undo run SQL of its choosing.
///
/// The triggers are as small as they can be, because SQLite parses every one
/// of them each time it reads the schema, at every start of memoapp: one
/// `INSERT … SELECT` each, writing nothing unless a step is being recorded
/// (a row in `undo_recording`, inside the recording transaction), so undoing,
/// the migrations and the tools that write by hand add nothing to the
/// history. (The session extension would need no triggers, but the SQLite
/// Debian ships refuses tables with generated columns, as `todos` has.)
enum UndoSchema {
    /// The tables whose changes can be undone: every table of to-dos, memos,
    /// voice memos and timers. The search indexes follow their tables by their
    /// own triggers; the onboarding state is not an item.
    static let loggedTables = [
        "todos", "todo_tags", "memos", "memo_tags",
        "voice_memos", "voice_memo_tags", "voice_memo_peaks",
        "timers", "timer_spans", "timer_laps",
    ]

    /// Values a logged row can hold: the widest logged table's columns.
    static let valueColumns = 24

    static let migrations = [
        Migration("undo.1-history") { connection in
            try connection.executeScript(tables)
            // A table a damaged database lacks (its migration record gone too)
            // gets none: doctor's reference schema is made the same way.
            for table in loggedTables {
                let columns = try columns(of: table, in: connection)
                guard !columns.isEmpty else { continue }
                try connection.executeScript(triggers(for: columns, of: table, loggingChanges: false))
            }
        },
        // notes.10 gave `todos` the column `remind_at`: its triggers log it from here on.
        Migration("undo.2-todo-triggers-with-remind", remakingTriggersOf: "todos"),
        // timers.4 gave `timers` the columns `todo_id` and `seen_at`.
        Migration("undo.3-timer-triggers-with-todo-and-seen", remakingTriggersOf: "timers"),
        // notes.11 gave `todos` its repeat columns: triggers made before it
        // would log rows without them, and undoing an edit would keep the rule.
        Migration("undo.4-todo-triggers-with-repeat", remakingTriggersOf: "todos"),
        // Which front end made each step (`ChangeOrigin`): every front end's
        // changes share one history, and an undo says whose it reverted.
        Migration("undo.5-step-origin", sql: "ALTER TABLE undo_steps ADD COLUMN origin TEXT NOT NULL DEFAULT 'cli';"),
    ]

    /// A table's stored columns, in order, with whether each is part of its
    /// primary key (the columns that find a row again: `id` for most).
    /// Generated columns are left out: SQLite computes them again.
    struct Column: Equatable {
        let name: String
        let isKey: Bool
    }

    static func columns(of table: String, in connection: Connection) throws -> [Column] {
        // The pragma itself, not the table-valued `pragma_table_info(?)`,
        // which costs every recorded step (its after-images) twice as much
        // to prepare; it lists the columns in order. A table name cannot be
        // bound here: it is quoted.
        let quoted = "\"" + table.replacingAll("\"", with: "\"\"") + "\""
        return try connection.query("PRAGMA table_info(\(quoted))") {
            Column(name: $0.string(1), isKey: $0.int(5) > 0)
        }
    }

    /// Made once: every recorded step's after-images name them.
    static let valueNames: [String] = (1...valueColumns).map { "v\($0)" }

    /// Drops `table`'s three triggers and makes them again from its columns
    /// as they are now: the step that must follow a migration adding a
    /// column to a logged table, or an undo would not restore that column.
    /// From `changes.2-in-undo-triggers` on, they end with the change log's
    /// INSERTs (`ChangeLog.entryStatement`); the steps before it made them
    /// without, and still do on a new database, where they run first.
    static func remakeTriggers(of table: String, in connection: Connection) throws {
        let columns = try columns(of: table, in: connection)
        guard !columns.isEmpty else { return }
        let drops = ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS undo_\(table)_\($0);\n" }
        let logsChanges = try ChangeLog.livesInUndoTriggers(connection)
        let skipsRevisions = try Revisions.liveIn(connection)
        let recordsRemovals = try SyncSchema.liveIn(connection)
        try connection.executeScript(drops.joined() + triggers(for: columns, of: table, loggingChanges: logsChanges,
                                                               skippingRevisions: skipsRevisions,
                                                               recordingRemovals: recordsRemovals))
    }

    // MARK: - Private

    private static var tables: String {
        """
        CREATE TABLE undo_steps (
            id INTEGER PRIMARY KEY,
            description TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE undo_recording (
            step INTEGER NOT NULL
        );
        CREATE TABLE undo_rows (
            id INTEGER PRIMARY KEY,
            step INTEGER NOT NULL REFERENCES undo_steps (id) ON DELETE CASCADE,
            table_name TEXT NOT NULL,
            operation TEXT NOT NULL,
            value_count INTEGER NOT NULL,
            \(valueNames.joined(separator: ", "))
        );
        CREATE INDEX undo_rows_by_step ON undo_rows (step);
        CREATE TABLE undo_files (
            kept_name TEXT PRIMARY KEY,
            step INTEGER NOT NULL REFERENCES undo_steps (id) ON DELETE CASCADE,
            library_name TEXT NOT NULL
        );
        CREATE INDEX undo_files_by_step ON undo_files (step);
        """
    }

    /// Three triggers: an insert logs the new row's key (undone by deleting
    /// it), an update and a delete the old row whole (undone by writing it
    /// back); with `loggingChanges`, each then adds the change log's entry.
    /// With `skippingRevisions`, an item's update trigger fires on every
    /// column but `rev`: the update that gives the item its new revision
    /// (`Revisions`) is no change of its own.
    private static func triggers(for columns: [Column], of table: String, loggingChanges: Bool,
                                 skippingRevisions: Bool = false, recordingRemovals: Bool = false) -> String {
        let keys = columns.filter(\.isKey)
        precondition(!keys.isEmpty, "table \(table) has no primary key to undo by")
        precondition(columns.count <= valueColumns, "table \(table) is wider than undo_rows")
        // Empty without the log, so the SQL stays byte for byte what the undo
        // migrations made: doctor compares it with theirs.
        func entry(_ event: String) -> String {
            guard loggingChanges, let statement = ChangeLog.entryStatement(for: table, event: event) else { return "" }
            // Sync's record of a removal follows the log's entry, whose number it takes.
            guard recordingRemovals, let removal = SyncSchema.removalStatement(for: table, event: event) else {
                return statement + "\n"
            }
            return statement + "\n" + removal + "\n"
        }
        func timing(_ event: String) -> String {
            guard skippingRevisions, event == "UPDATE", Revisions.hasRevisions(table) else { return event }
            return "UPDATE OF " + columns.map(\.name).filter { $0 != "rev" }.joined(separator: ", ")
        }
        func trigger(_ event: String, _ operation: String, _ row: String, _ logged: [Column]) -> String {
            let targets = valueNames.prefix(logged.count).joined(separator: ", ")
            let values = logged.map { "\(row).\($0.name)" }.joined(separator: ", ")
            return """
                CREATE TRIGGER undo_\(table)_\(operation) AFTER \(timing(event)) ON \(table) BEGIN
                INSERT INTO undo_rows (step, table_name, operation, value_count, \(targets))
                SELECT step, '\(table)', '\(operation)', \(logged.count), \(values) FROM undo_recording;
                \(entry(event))END;

                """
        }
        return trigger("INSERT", "insert", "new", keys) + trigger("UPDATE", "update", "old", columns)
            + trigger("DELETE", "delete", "old", columns)
    }
}

extension Migration {
    /// A step that makes `table`'s undo triggers again (see
    /// `UndoSchema.remakeTriggers`).
    init(_ name: String, remakingTriggersOf table: String) {
        self.init(name) { try UndoSchema.remakeTriggers(of: table, in: $0) }
    }
}
