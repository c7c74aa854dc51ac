import MemoCore
import SQLite

/// The tables sync keeps in every data home, hub or device.
///
/// - `sync_state`: one row. `epoch` names this home as a hub: a device that
///   meets another epoch (a restore, a replaced server) takes a fresh copy
///   and sends everything again. `device` names this home as a device, also
///   renewed by a restore, so a hub counts its changes afresh. `hlc` is the
///   latest stamp of the hybrid clock (`HybridClock`); `published_rev` the
///   rev up to which the hub has published its own changes into
///   `sync_items`; `seq` the hub's last sequence number.
/// - `sync_items`: one row per item known to sync, removed items included
///   (the tombstones a new device needs, kept for good): its values and
///   each field's clock as last synced, the item's rev then, and (on a hub)
///   the sequence number a pull pages by. On a hub it is what devices pull;
///   on a device it is the base its own changes are told against.
/// - `sync_removed`: items removed here, written by the item tables' delete
///   triggers in the removal's transaction whoever removed them, until sync
///   has told them on.
/// - `sync_devices`: on a hub, each device's last change applied, so a
///   retried push is applied once and a gap is refused.
/// - `sync_timer_links`: a timer written by sync whose to-do (named by uid)
///   has not arrived yet; tied when it does (`SyncedTimers`).
/// - `sync_remote`: on a device, its hub: address, token, epoch met, the
///   pull cursor, the last change pushed, when it last synced.
enum SyncSchema {
    static let migrations = [
        Migration("sync.1-records") { connection in
            try connection.executeScript("""
                CREATE TABLE sync_state (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    epoch TEXT NOT NULL,
                    device TEXT NOT NULL,
                    hlc INTEGER NOT NULL DEFAULT 0 CHECK (hlc >= 0),
                    published_rev INTEGER NOT NULL DEFAULT 0 CHECK (published_rev >= 0),
                    seq INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0)
                );
                CREATE TABLE sync_items (
                    uid TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    rev INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    is_removed INTEGER NOT NULL DEFAULT 0,
                    vals TEXT,
                    clocks TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX sync_items_by_seq ON sync_items (seq);
                CREATE TABLE sync_removed (
                    uid TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    rev INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_devices (
                    device TEXT PRIMARY KEY,
                    last_change INTEGER NOT NULL CHECK (last_change >= 0),
                    seen_at REAL NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_remote (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    server TEXT NOT NULL,
                    token TEXT NOT NULL,
                    epoch TEXT,
                    cursor INTEGER NOT NULL DEFAULT 0,
                    pushed_through INTEGER NOT NULL DEFAULT 0,
                    last_sync REAL,
                    last_error TEXT
                );
                """)
            try connection.execute("INSERT INTO sync_state (one, epoch, device) VALUES (1, ?, ?)",
                                   UUID4.random(), UUID4.random())
            // The delete triggers gain the statement that remembers a removal.
            for kind in SyncedKind.all { try UndoSchema.remakeTriggers(of: kind.table, in: connection) }
        },
        // Timers and voice memos sync: their delete triggers gain the
        // removal statement, a timer's link to a to-do not yet arrived waits
        // in `sync_timer_links`, and the ones made before are changes not
        // yet told. The next scan looks at every item (those already synced
        // are skipped by their records), and a device meets its hub under a
        // new name, since their numbers are older than what it pushed before.
        Migration("sync.2-timers-and-voice-memos") { connection in
            try connection.executeScript("""
                CREATE TABLE sync_timer_links (
                    timer_uid TEXT PRIMARY KEY,
                    todo_uid TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
            try UndoSchema.remakeTriggers(of: SyncedTimers.kind.table, in: connection)
            try UndoSchema.remakeTriggers(of: SyncedVoice.kind.table, in: connection)
            try connection.execute("UPDATE sync_state SET published_rev = 0, device = ?", UUID4.random())
            try connection.execute("UPDATE sync_remote SET pushed_through = 0")
        },
    ]

    /// Whether `sync.1-records` has run: the delete triggers then end with
    /// `removalStatement`.
    static func liveIn(_ connection: Connection) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_removed'", map: { _ in true }) == true
    }

    /// The statement a synced table's delete trigger ends with: the removed
    /// item's uid, numbered by the change log's entry just written.
    static func removalStatement(for table: String, event: String) -> String? {
        guard event == "DELETE", let kind = SyncedKind.all.first(where: { $0.table == table }) else { return nil }
        return "INSERT OR REPLACE INTO sync_removed (uid, kind, rev) SELECT old.uid, '\(kind.kind.rawValue)', "
            + "ifnull((SELECT max(seq) FROM item_changes), 0) WHERE old.uid IS NOT NULL;"
    }

    /// Gives this home new names as a hub and as a device: after a restore
    /// or a bulk write, which replace what devices and hub knew of it.
    /// Devices that meet the new epoch take a fresh copy and send back what
    /// it lacks; the hub meets this home as a new device and counts its
    /// changes afresh. The records stay: their clocks are still true, and
    /// they are what lets the first sync after it tell old from new.
    public static func renewIdentity(in connection: Connection) throws {
        guard try liveIn(connection) else { return }
        try connection.execute("UPDATE sync_state SET epoch = ?, device = ?", UUID4.random(), UUID4.random())
        try connection.execute("UPDATE sync_remote SET pushed_through = 0")
    }
}
