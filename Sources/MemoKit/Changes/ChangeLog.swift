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
/// ## Bulk writes
/// A write that fills or empties whole tables (an import into an empty home,
/// undoing one, a restore) sets the triggers aside and writes one entry whose
/// action is `everything` instead of a row per item
/// (`recordingEverything`).
///
/// A migration that remakes one of the logged tables drops its triggers with
/// it; it must make them again as `changes.1-log` did.
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
    /// or empties whole tables, with the logging triggers set aside, then
    /// puts them back with their own SQL and logs one `everything` entry.
    /// Dropped and made again in one transaction, the triggers are never
    /// missing for another connection.
    public static func recordingEverything<T>(in connection: Connection, _ body: () throws -> T) throws -> T {
        let triggers = try connection.query("""
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'item_changes_*'
                AND name <> 'item_changes_pruned' ORDER BY name
            """) { row in (name: row.string(0), sql: row.string(1)) }
        for trigger in triggers { try connection.execute("DROP TRIGGER \"\(trigger.name)\"") }
        let result = try body()
        for trigger in triggers { try connection.execute(trigger.sql) }
        try noteEverythingChanged(in: connection)
        return result
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

    /// One `INSERT` of the fewest words per event, for the same reason as
    /// `loggedTables` has the fewest triggers.
    private static func triggers(for table: LoggedTable) -> String {
        table.events.map { event in
            let row = event == "DELETE" ? "old" : "new"
            let action: Action = !table.isItem || event == "UPDATE" ? .changed : event == "INSERT" ? .created : .removed
            return """
                CREATE TRIGGER item_changes_\(table.name)_\(event.lowercased()) AFTER \(event) ON \(table.name) BEGIN
                INSERT INTO item_changes VALUES (NULL, '\(table.kind.rawValue)', \(row).\(table.itemColumn), '\(action.rawValue)');
                END;

                """
        }.joined()
    }
}
