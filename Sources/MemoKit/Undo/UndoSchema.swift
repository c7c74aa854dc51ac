import SQLite

/// The undo history's tables and the triggers that fill them, after SQLite's
/// own technique (https://www.sqlite.org/undoredo.html): triggers on every
/// table holding the user's items log what each change undoes, in the same
/// transaction as the change.
///
/// Unlike that page's log, the history holds no SQL: a change is its table,
/// its kind and the values it needs (`undo_values`, one row per column, each
/// kept with its own type: JSON would round the times' last digits). Undoing
/// builds its statements from the live table's columns and binds the values,
/// so a database from elsewhere cannot make an undo run SQL of its choosing.
///
/// The triggers log only while a change is being recorded (a row in
/// `undo_recording`, inside the recording transaction), so undoing, the
/// migrations and the tools that write by hand add nothing to the history.
enum UndoSchema {
    /// The tables whose changes can be undone: every table of to-dos, memos,
    /// voice memos and timers. The search indexes follow their tables by their
    /// own triggers; the onboarding state is not an item.
    static let loggedTables = [
        "todos", "todo_tags", "memos", "memo_tags",
        "voice_memos", "voice_memo_tags", "voice_memo_peaks",
        "timers", "timer_spans", "timer_laps",
    ]

    static let migrations = [
        Migration("undo.1-history") { connection in
            try connection.executeScript(tables)
            for table in loggedTables {
                try connection.executeScript(try triggers(for: try columns(of: table, in: connection), of: table))
            }
        },
    ]

    /// A table's columns, in order, with whether each is part of its primary
    /// key (the columns that find a row again: `id` for most tables).
    struct Column: Equatable {
        let name: String
        let isKey: Bool
    }

    static func columns(of table: String, in connection: Connection) throws -> [Column] {
        try connection.query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", table) {
            Column(name: $0.string(0), isKey: $0.int(1) > 0)
        }
    }

    // MARK: - Private

    private static let tables = """
        CREATE TABLE undo_steps (
            id INTEGER PRIMARY KEY,
            description TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE undo_recording (
            step INTEGER NOT NULL
        );
        CREATE TABLE undo_changes (
            id INTEGER PRIMARY KEY,
            step INTEGER NOT NULL REFERENCES undo_steps (id) ON DELETE CASCADE,
            table_name TEXT NOT NULL,
            operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete'))
        );
        CREATE INDEX undo_changes_step ON undo_changes (step);
        CREATE TABLE undo_values (
            change_id INTEGER NOT NULL REFERENCES undo_changes (id) ON DELETE CASCADE,
            column_name TEXT NOT NULL,
            value,
            PRIMARY KEY (change_id, column_name)
        ) WITHOUT ROWID;
        CREATE TABLE undo_files (
            kept_name TEXT PRIMARY KEY,
            step INTEGER NOT NULL REFERENCES undo_steps (id) ON DELETE CASCADE,
            library_name TEXT NOT NULL
        );
        CREATE INDEX undo_files_step ON undo_files (step);
        """

    /// Three triggers: an insert logs the new row's key (undone by deleting
    /// it), an update and a delete the old row whole (undone by writing it
    /// back). The values of one change are found by the change's id, the
    /// newest in `undo_changes` while the trigger runs.
    private static func triggers(for columns: [Column], of table: String) throws -> String {
        let keys = columns.filter(\.isKey)
        precondition(!keys.isEmpty, "table \(table) has no primary key to undo by")
        func values(_ row: String, _ columns: [Column]) -> String {
            columns.map { "((SELECT max(id) FROM undo_changes), '\($0.name)', \(row).\"\($0.name)\")" }
                .joined(separator: ", ")
        }
        func trigger(_ event: String, _ operation: String, _ row: String, _ logged: [Column]) -> String {
            """
            CREATE TRIGGER undo_\(table)_\(operation) AFTER \(event) ON \(table)
            WHEN EXISTS (SELECT 1 FROM undo_recording) BEGIN
                INSERT INTO undo_changes (step, table_name, operation)
                    SELECT step, '\(table)', '\(operation)' FROM undo_recording;
                INSERT INTO undo_values (change_id, column_name, value) VALUES \(values(row, logged));
            END;

            """
        }
        return trigger("INSERT", "insert", "new", keys) + trigger("UPDATE", "update", "old", columns)
            + trigger("DELETE", "delete", "old", columns)
    }
}
