import SQLite

/// Item revisions. An item's `rev` is the number of the change log's entry
/// for its latest change (`item_changes.seq`, see `ChangeLog`): one counter
/// for the whole data home, taken in the transaction of the change, so a
/// higher rev is a later change, whoever made it (a command in another
/// process, the server, undo, an import, a tool writing by hand). The API's
/// ETag is the rev (a running timer or the clock never change it), and
/// "what changed after rev N" is the log after entry N.
///
/// ## Where it is set
/// One trigger on the log (`item_changes_revise`) writes each new entry's
/// number into the rev of the item it names: the log already has an entry
/// for every change of every item, its parts included (a timer's laps), so
/// this costs every start of memoapp the parsing of one trigger, not a
/// statement in each item table's trigger. The feature modules own the
/// `rev` column (`Migration(_:addingRevisionTo:)`) and read it; only this
/// layer, which composes the tables, sets it.
///
/// Writing the rev is an update of the item's row; its undo trigger fires
/// `OF` every column but `rev`, so that update starts no second undo row
/// and no second log entry, and SQLite does not even compile that trigger
/// into it (a `WHEN` that skipped it cost every insert half a million
/// instructions more, to compile the triggers it would skip). An undo
/// writes back the other columns and keeps the row's rev, so it is logged,
/// and revised, as any change.
///
/// ## Bulk writes
/// While a bulk write has paused the log (`ChangeLog.recordingEverything`),
/// nothing is logged and nothing revised; the rows it inserted (rev 0) are
/// numbered at its end, past the log's last entry, and an `everything`
/// entry beyond them keeps the numbers growing (`assignMissing`).
public enum Revisions {
    /// The tables of items, each with a `rev` column, by the log's kinds.
    static let itemTables: [(kind: ChangeLog.Kind, table: String)] = [
        (.todo, "todos"), (.memo, "memos"), (.voice, "voice_memos"), (.timer, "timers"),
    ]

    static let migrations = [
        Migration("revisions.1-from-the-change-log") { connection in
            // Undo triggers first: their update triggers then leave out
            // updates of `rev`, so numbering the rows already there logs
            // nothing and undoes nothing.
            try connection.executeScript(reviseTrigger)
            for (_, table) in itemTables {
                try UndoSchema.remakeTriggers(of: table, in: connection)
            }
            try assignMissing(in: connection)
        },
    ]

    /// Whether `revisions.1-from-the-change-log` has run in `connection`'s
    /// database: the item tables' undo triggers leave out revisions then.
    static func liveIn(_ connection: Connection) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'item_changes_revise'", map: { _ in true }) == true
    }

    /// Whether `table` holds items with a `rev`: its undo update trigger
    /// then fires on every column but `rev`, whose update is the revision
    /// being written, no change of its own.
    static func hasRevisions(_ table: String) -> Bool {
        itemTables.contains { $0.table == table }
    }

    /// The data home's newest revision: the change log's last entry.
    public static func newest(in connection: Connection) throws -> Int64 {
        try connection.queryFirst("SELECT max(seq) FROM item_changes") { $0.isNull(0) ? 0 : $0.int64(0) } ?? 0
    }

    /// Gives every item without a revision (rev 0: made before revisions
    /// existed, or by a bulk write) one past the log's last entry: that
    /// entry's number plus its id, unique since ids are, then logs an
    /// `everything` entry past them all, from which the log's numbers go
    /// on. Returns whether it logged that entry (whether any row needed a
    /// number).
    @discardableResult
    static func assignMissing(in connection: Connection) throws -> Bool {
        var base = try newest(in: connection)
        var assigned = false
        for (_, table) in itemTables {
            // A damaged database may lack a table (doctor's reference schema
            // is made the same way): it has no rows to number.
            guard try connection.queryFirst(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table, map: { _ in true }) == true
            else { continue }
            guard let (lowest, highest) = try connection.queryFirst(
                "SELECT min(id), max(id) FROM \(table) WHERE rev = 0", map: { row -> (Int64, Int64)? in
                    row.isNull(0) ? nil : (row.int64(0), row.int64(1))
                }) ?? nil else { continue }
            // A range of ids at a time: one statement over a million rows
            // first collects every rowid it will change (its WHERE reads
            // the column it writes), which held 100 MB more at the end of
            // an import of 1,000,000 tasks (211 -> 334 MB).
            for start in stride(from: lowest, through: highest, by: 50_000) {
                try connection.execute("UPDATE \(table) SET rev = ? + id WHERE id BETWEEN ? AND ? AND rev = 0",
                                       base, start, start + 49_999)
            }
            base += highest
            assigned = true
        }
        guard assigned else { return false }
        try connection.execute("INSERT INTO item_changes (seq, kind, item_id, action) VALUES (?, '', 0, 'everything')",
                               base + 1)
        return true
    }

    // MARK: - Private

    /// One statement per kind of item; the log's kind picks the one that
    /// finds a row (the others' constant test fails before any lookup).
    private static var reviseTrigger: String {
        let updates = itemTables.map { kind, table in
            "UPDATE \(table) SET rev = new.seq WHERE new.kind = '\(kind.rawValue)' AND id = new.item_id;\n"
        }
        return "CREATE TRIGGER item_changes_revise AFTER INSERT ON item_changes BEGIN\n" + updates.joined() + "END;\n"
    }
}
