import SQLite

/// The log of item changes, written by the database itself: triggers on the
/// tables of to-dos, memos, voice memos and timers add one row to
/// `item_changes` for each row inserted, updated or deleted, in the same
/// transaction as the change. Every writer is covered without knowing it:
/// the server, `memoapp` commands in other processes, undo, imports and
/// tools that write by hand.
///
/// A reader (the server's event feed) remembers the newest entry it has
/// seen and reads only the entries after it (`ChangeLog.changes(after:)`),
/// so what it costs follows what changed, not how many items there are.
///
/// ## The bound
/// The log keeps the newest `keptEntries` entries, give or take
/// `pruneInterval`: every `pruneInterval`-th entry's trigger deletes those
/// more than `keptEntries` behind it, a range of the primary key (no scan).
/// A reader that fell further behind than that finds the entry it
/// remembered gone and must start again from the current state (the event
/// stream's `resync`); that costs one read of everything, which is also the
/// cheapest way to tell of more than `keptEntries` changes.
///
/// ## Where the INSERTs live
/// `changes.1-log` made a trigger per table and event. Every trigger costs
/// every start of memoapp its parsing, and each of those tables and events
/// already had an undo trigger (`UndoSchema`), so `changes.2-in-undo-triggers`
/// moved each INSERT into the undo trigger of the same table and event and
/// dropped the log's own: the same writes logged by fourteen fewer triggers.
/// A migration that makes a logged table's undo triggers again
/// (`UndoSchema.remakeTriggers`) makes them with the log's INSERT.
///
/// ## Bulk writes
/// A write that fills or empties whole tables (an import into an empty home,
/// undoing one, a restore) pauses the logging and writes one entry whose
/// action is `everything` instead of a row per item
/// (`recordingEverything`).
public enum ChangeLog {
    /// What a change did to its item.
    public enum Action: String, Sendable {
        case created, changed, removed
        /// Anything may have changed (a bulk write): read everything again.
        case everything
    }

    /// The kinds of items, as the log names them (the server's event names).
    public enum Kind: String, CaseIterable, Sendable {
        case todo, memo, voice, timer
    }

    /// Entries kept at least. This and `pruneInterval` are written into
    /// `changes.1-log`'s pruning trigger, whose SQL is frozen: other values
    /// need a new migration that makes the trigger again.
    public static let keptEntries: Int64 = 10_000
    /// How many entries are added between two prunes.
    static let pruneInterval: Int64 = 1_000

    static let migrations = [
        Migration("changes.1-log") { connection in
            try connection.executeScript(table)
            // A table a damaged database lacks (its migration record gone
            // too) gets none, as for the undo triggers: doctor's reference
            // schema is made the same way.
            for logged in loggedTables where try connection.queryFirst(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", logged.name, map: { _ in true }) == true {
                try connection.executeScript(triggers(for: logged))
            }
        },
        Migration("changes.2-in-undo-triggers") { connection in
            try connection.executeScript(pausedTable)
            for logged in loggedTables {
                let drops = logged.events.map { "DROP TRIGGER IF EXISTS item_changes_\(logged.name)_\($0.lowercased());\n" }
                try connection.executeScript(drops.joined())
                try UndoSchema.remakeTriggers(of: logged.name, in: connection)
            }
        },
    ]

    /// A logged table: the item kind its rows belong to, the column holding
    /// the item's id, whether a row is the item itself (else a part of it,
    /// whose change is a change of the item), and the writes logged.
    struct LoggedTable {
        let name: String
        let kind: Kind
        let itemColumn: String
        let isItem: Bool
        var events = ["INSERT", "UPDATE", "DELETE"]
    }

    /// Every trigger costs every start of memoapp its parsing (about 30,000
    /// instructions each, a tenth of a millisecond for all), so tables whose
    /// writes always come with a write of another logged row have none: a
    /// timer's spans are opened and closed only with its state (the row in
    /// `timers`), and its laps are only ever added (or removed by an undo).
    static let loggedTables = [
        LoggedTable(name: "todos", kind: .todo, itemColumn: "id", isItem: true),
        LoggedTable(name: "memos", kind: .memo, itemColumn: "id", isItem: true),
        LoggedTable(name: "voice_memos", kind: .voice, itemColumn: "id", isItem: true),
        LoggedTable(name: "timers", kind: .timer, itemColumn: "id", isItem: true),
        LoggedTable(name: "timer_laps", kind: .timer, itemColumn: "timer_id", isItem: false, events: ["INSERT", "DELETE"]),
    ]

    /// Runs `body`, a write inside the caller's write transaction that fills
    /// or empties whole tables, with the logging paused, then logs one
    /// `everything` entry. The pause is a row in `item_changes_paused`, which
    /// the triggers' INSERTs look for: written and removed in the caller's
    /// transaction, it is never seen by another connection, whose writes wait
    /// for that transaction and are logged as ever. Nested calls pause once,
    /// until the outermost ends.
    public static func recordingEverything<T>(in connection: Connection, _ body: () throws -> T) throws -> T {
        precondition(connection.isInsideTransaction, "a bulk write pauses the change log inside its own transaction")
        let isPaused = try connection.queryFirst("SELECT EXISTS (SELECT 1 FROM item_changes_paused)") { $0.bool(0) } ?? false
        if isPaused { return try body() }
        try connection.execute("INSERT INTO item_changes_paused DEFAULT VALUES")
        let result: T
        do {
            result = try body()
        } catch {
            // The caller may go on and commit: the pause must not outlive it.
            try? connection.execute("DELETE FROM item_changes_paused")
            throw error
        }
        try connection.execute("DELETE FROM item_changes_paused")
        // Its rows bypassed the log sync reads: devices of this home meet
        // it afresh.
        try SyncSchema.renewIdentity(in: connection)
        // The rows it wrote got no revision while paused: numbering them
        // logs the `everything` entry past their numbers.
        guard try Revisions.liveIn(connection), try Revisions.assignMissing(in: connection) else {
            try noteEverythingChanged(in: connection)
            return result
        }
        return result
    }

    /// The INSERT that ends the undo trigger of `table`'s `event` (`INSERT`,
    /// `UPDATE`, `DELETE`) once `changes.2-in-undo-triggers` has run; nil for
    /// a table or event the log leaves out. Skipped while a bulk write has
    /// paused the log.
    static func entryStatement(for table: String, event: String) -> String? {
        guard let logged = loggedTables.first(where: { $0.name == table }), logged.events.contains(event) else {
            return nil
        }
        let row = event == "DELETE" ? "old" : "new"
        let action = entryAction(of: logged, event: event)
        return "INSERT INTO item_changes SELECT NULL, '\(logged.kind.rawValue)', \(row).\(logged.itemColumn), "
            + "'\(action.rawValue)' WHERE NOT EXISTS (SELECT 1 FROM item_changes_paused);"
    }

    /// Whether the undo triggers carry the log's INSERTs: whether
    /// `changes.2-in-undo-triggers` has made its table in `connection`'s
    /// database (the undo migrations before it make triggers without them).
    static func livesInUndoTriggers(_ connection: Connection) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'item_changes_paused'", map: { _ in true }) == true
    }

    /// Logs that anything may have changed: after a write that no trigger
    /// saw (a restore replaces the whole database, log included).
    public static func noteEverythingChanged(in connection: Connection) throws {
        try connection.execute("INSERT INTO item_changes (kind, item_id, action) VALUES ('', 0, 'everything')")
    }

    // MARK: - Private

    private static var table: String {
        """
        CREATE TABLE item_changes (
            seq INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            action TEXT NOT NULL
        );
        CREATE TRIGGER item_changes_pruned AFTER INSERT ON item_changes
        WHEN new.seq % \(pruneInterval) = 0 BEGIN
        DELETE FROM item_changes WHERE seq <= new.seq - \(keptEntries);
        END;

        """
    }

    /// Holds a row while a bulk write has paused the log (`recordingEverything`).
    private static let pausedTable = "CREATE TABLE item_changes_paused (paused INTEGER PRIMARY KEY);\n"

    private static func entryAction(of table: LoggedTable, event: String) -> Action {
        !table.isItem || event == "UPDATE" ? .changed : event == "INSERT" ? .created : .removed
    }

    /// `changes.1-log`'s triggers (frozen: that migration has run in the
    /// field), one `INSERT` of the fewest words per event.
    private static func triggers(for table: LoggedTable) -> String {
        table.events.map { event in
            let row = event == "DELETE" ? "old" : "new"
            let action = entryAction(of: table, event: event)
            return """
                CREATE TRIGGER item_changes_\(table.name)_\(event.lowercased()) AFTER \(event) ON \(table.name) BEGIN
                INSERT INTO item_changes VALUES (NULL, '\(table.kind.rawValue)', \(row).\(table.itemColumn), '\(action.rawValue)');
                END;

                """
        }.joined()
    }
}
