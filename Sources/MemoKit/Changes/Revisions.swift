import SQLite

/// Item revisions: one counter for the whole data home (`item_revision`),
/// bumped in the transaction of every change of an item, whose new value
/// becomes the item's `rev`. A higher rev is a later change, whoever made
/// it: a command in another process, the server, undo, an import, a tool
/// writing by hand. The API's ETag is the rev (a running timer or the clock
/// never change it), and sync will ask "what changed after rev N".
///
/// ## Where the bumps live
/// In the undo triggers of each item table and of the parts whose change is
/// a change of their item (a voice memo's tags, a timer's laps), after the
/// change log's INSERT, as that log's INSERTs do (see `ChangeLog`): every
/// trigger costs every start of memoapp its parsing, so none is added.
/// The feature modules own the `rev` column (`Migration(_:addingRevisionTo:)`)
/// and read it; only this layer, which composes the tables, sets it.
///
/// An item's own rev is written by an `UPDATE … SET rev` inside its
/// trigger. Its update trigger fires `OF` every column but `rev`, so that
/// statement starts no trigger of its own: no second undo row, no second
/// change log entry.
///
/// ## Bulk writes
/// While a bulk write has paused the change log (`ChangeLog.recordingEverything`)
/// the triggers skip the bumps; the rows it inserted (rev 0) get theirs at
/// its end, in one statement per table (`assignMissing`).
public enum Revisions {
    /// A table whose changes are revisions of an item: the item's own table
    /// (`key` is `id`) or a table of its parts (`key` holds the item's id).
    struct RevisedTable {
        let name: String
        let itemTable: String
        let key: String
        var isItem: Bool { name == itemTable }
    }

    static let revisedTables = [
        RevisedTable(name: "todos", itemTable: "todos", key: "id"),
        RevisedTable(name: "memos", itemTable: "memos", key: "id"),
        RevisedTable(name: "voice_memos", itemTable: "voice_memos", key: "id"),
        RevisedTable(name: "timers", itemTable: "timers", key: "id"),
        RevisedTable(name: "voice_memo_tags", itemTable: "voice_memos", key: "memo_id"),
        RevisedTable(name: "timer_laps", itemTable: "timers", key: "timer_id"),
    ]

    /// The tables of items, each with a `rev` column.
    static var itemTables: [String] { revisedTables.filter(\.isItem).map(\.name) }

    static let migrations = [
        Migration("revisions.1-counter") { connection in
            try connection.executeScript("""
                CREATE TABLE item_revision (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    last INTEGER NOT NULL CHECK (last >= 0)
                );
                INSERT INTO item_revision (id, last) VALUES (1, 0);
                """)
            // Triggers first: their update triggers then leave out `rev`, so
            // numbering the rows already there logs nothing and undoes nothing.
            for table in revisedTables.map(\.name) {
                try UndoSchema.remakeTriggers(of: table, in: connection)
            }
            try assignMissing(in: connection)
        },
    ]

    /// Whether `revisions.1-counter` has made the counter in `connection`'s
    /// database: the undo triggers carry the bumps from then on.
    static func liveIn(_ connection: Connection) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'item_revision'", map: { _ in true }) == true
    }

    /// The statements that end `table`'s undo trigger for `event` (`INSERT`,
    /// `UPDATE`, `DELETE`): the counter's bump and, unless the item itself
    /// is gone, its new rev. nil for a table without revisions.
    static func bumpStatements(for table: String, event: String) -> String? {
        guard let revised = revisedTables.first(where: { $0.name == table }) else { return nil }
        let notPaused = "NOT EXISTS (SELECT 1 FROM item_changes_paused)"
        let counter = "UPDATE item_revision SET last = last + 1 WHERE \(notPaused);"
        if revised.isItem && event == "DELETE" { return counter }
        let row = event == "DELETE" ? "old" : "new"
        return counter + "\nUPDATE \(revised.itemTable) SET rev = (SELECT last FROM item_revision) "
            + "WHERE id = \(row).\(revised.key) AND \(notPaused);"
    }

    /// The columns an item table's update trigger fires on: all but `rev`.
    static func updateColumns(of table: String, _ columns: [UndoSchema.Column]) -> [String]? {
        guard itemTables.contains(table) else { return nil }
        return columns.map(\.name).filter { $0 != "rev" }
    }

    /// The data home's newest revision: that of its latest change.
    public static func newest(in connection: Connection) throws -> Int64 {
        try connection.queryFirst("SELECT last FROM item_revision") { $0.int64(0) } ?? 0
    }

    /// Gives every item without a revision (rev 0: made before revisions
    /// existed, or by a bulk write) a new one: the counter plus its id,
    /// unique since ids are, then moves the counter past them.
    static func assignMissing(in connection: Connection) throws {
        for table in itemTables {
            // A damaged database may lack a table (doctor's reference schema
            // is made the same way): it has no rows to number.
            guard try connection.queryFirst(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table, map: { _ in true }) == true
            else { continue }
            guard let highest = try connection.queryFirst("SELECT max(id) FROM \(table) WHERE rev = 0", map: {
                $0.isNull(0) ? nil : $0.int64(0)
            }) ?? nil else { continue }
            try connection.execute("UPDATE \(table) SET rev = (SELECT last FROM item_revision) + id WHERE rev = 0")
            try connection.execute("UPDATE item_revision SET last = last + ?", highest)
        }
    }
}
