import MemoCore
import SQLite

/// A data home as a device of a hub: what it has not sent yet, and how
/// what it pulls is written. Each call runs in the caller's transaction;
/// `SyncRun` puts them in order around the network.
struct SyncDevice {
    let connection: Connection
    let clock: WallClock
    let place: SyncPlace

    /// The hub this device syncs with, as saved by its first sync.
    struct Remote: Equatable {
        var server: String
        var token: String
        var epoch: String?
        var cursor: Int64
        var pushedThrough: Int64
        var lastSync: Timestamp?
        var lastError: String?
    }

    static func isConfigured(_ connection: Connection) throws -> Bool {
        try SyncSchema.liveIn(connection)
            && (try connection.queryFirst("SELECT 1 FROM sync_remote", map: { _ in true }) ?? false)
    }

    func remote() throws -> Remote? {
        try connection.queryFirst(
            "SELECT server, token, epoch, cursor, pushed_through, last_sync, last_error FROM sync_remote") { row in
            Remote(server: row.string(0), token: row.string(1), epoch: row.optionalString(2), cursor: row.int64(3),
                   pushedThrough: row.int64(4), lastSync: row.optionalDouble(5).map(Timestamp.init(secondsSince1970:)),
                   lastError: row.optionalString(6))
        }
    }

    /// Saves the hub. A new address or token keeps what was synced: the
    /// protocol tells whether it is still the same hub (its epoch) and the
    /// same device there (the change it expects next), and starts afresh
    /// only when not, so a hub that moved costs no full copy.
    func configure(server: String, token: String) throws {
        try connection.execute("""
            INSERT INTO sync_remote (one, server, token) VALUES (1, ?, ?)
            ON CONFLICT (one) DO UPDATE SET server = excluded.server, token = excluded.token
            """, server, token)
    }

    func deviceID() throws -> String {
        try connection.queryFirst("SELECT device FROM sync_state") { $0.string(0) } ?? ""
    }

    /// The hub has another epoch: forget the cursor and what it acknowledged,
    /// and meet it as a new device, to send everything held.
    func forgetHub() throws {
        try connection.execute("UPDATE sync_remote SET epoch = NULL, cursor = 0, pushed_through = 0")
        try connection.execute("UPDATE sync_state SET device = ?", UUID4.random())
    }

    func note(error: String?, syncedAt: Timestamp?) throws {
        if let syncedAt {
            try connection.execute("UPDATE sync_remote SET last_error = NULL, last_sync = ?", syncedAt.secondsSince1970)
        } else {
            try connection.execute("UPDATE sync_remote SET last_error = ?", error)
        }
    }

    // MARK: - Pushing

    /// What the next pushes carry: the changes not yet acknowledged, by
    /// number; everything held when the hub is met afresh (no epoch).
    struct Outgoing {
        var candidates: [LocalChanges.Candidate]
        var isFullCopy: Bool
        /// The rev the scan began at: the next scan starts there.
        var scannedThrough: Int64
        var removals: Int
        var liveItems: Int
    }

    func outgoing(remote: Remote) throws -> Outgoing {
        let scanned = try connection.queryFirst("SELECT published_rev FROM sync_state") { $0.int64(0) } ?? 0
        let newest = try LocalChanges.newestRev(in: connection)
        let isFullCopy = remote.epoch == nil
        let all = isFullCopy ? try LocalChanges.everything(in: connection) : try LocalChanges.since(scanned, in: connection)
        let candidates = all.filter { $0.number > remote.pushedThrough }
        let live = try connection.queryFirst("SELECT count(*) FROM sync_items WHERE NOT is_removed") { $0.int(0) } ?? 0
        return Outgoing(candidates: candidates, isFullCopy: isFullCopy, scannedThrough: newest,
                        removals: isFullCopy ? 0 : candidates.filter { $0.id == nil }.count, liveItems: live)
    }

    /// The changes `candidates` name, as they are now, each stamped by the
    /// hybrid clock; those with nothing to send left out.
    func changes(_ candidates: ArraySlice<LocalChanges.Candidate>, fullCopy: Bool) throws -> [SyncDocuments.Pushed] {
        var changes: [SyncDocuments.Pushed] = []
        for candidate in candidates {
            guard let change = try LocalChanges.resolve(candidate, fullCopy: fullCopy, in: connection) else { continue }
            guard fullCopy || change.stored == nil || !change.changedFields.isEmpty else {
                // Changed and changed back (or only in what sync does not
                // carry): the record is current again, so a pull is not
                // held back for a change that will never be sent.
                if var record = change.record, let stored = change.stored {
                    record.rev = stored.rev
                    try record.write(in: connection)
                }
                continue
            }
            let known = change.record?.clocks ?? [:]
            guard let stored = change.stored else {
                var removalClocks = known
                removalClocks[removedClock] = removalClocks[removedClock]
                    ?? HybridClock.next(after: known.values.max() ?? 0, now: clock.now())
                changes.append(.init(kind: change.kind, uid: change.uid, change: change.number, values: nil, changed: [],
                                     clocks: removalClocks, baseText: nil, baseTags: nil))
                continue
            }
            var clocks = fullCopy ? known : [:]
            clocks[removedClock] = nil
            // Each changed field is stamped when the item last changed here,
            // and after the value it replaced: never with the moment of the
            // push, which would let an old change beat a later one elsewhere.
            for field in change.changedFields {
                clocks[field] = HybridClock.next(after: known[field] ?? 0, now: stored.updatedAt)
            }
            let base = fullCopy ? nil : change.record?.values
            let textColumn = change.kind.mergedText.flatMap { name in change.kind.fields.first { $0.name == name } }?
                .columns.first?.name
            changes.append(.init(kind: change.kind, uid: change.uid, change: change.number, values: stored.values,
                                 changed: change.changedFields, clocks: clocks,
                                 baseText: textColumn.flatMap { base?.columns[$0]?.textValue },
                                 baseTags: base?.tags))
        }
        return changes
    }

    /// A push's changes through `through` were applied by the hub: each
    /// becomes the record of its item (what the next change here is told
    /// against), until a pull brings the hub's merged state, so a sync cut
    /// before its pull neither sends them again nor lets a later change
    /// claim fields it did not touch.
    func acknowledge(_ pushed: [SyncDocuments.Pushed], through: Int64) throws {
        try connection.execute("UPDATE sync_remote SET pushed_through = max(pushed_through, ?)", through)
        for change in pushed where change.change <= through {
            var record = try SyncRecord.read(uid: change.uid, in: connection)
                ?? SyncRecord(uid: change.uid, kind: change.kind, rev: 0, seq: 0, values: nil, clocks: [:])
            record.rev = change.change
            record.values = change.values
            for (field, stamp) in change.clocks { record.clocks[field] = max(record.clocks[field] ?? 0, stamp) }
            if change.values != nil { record.clocks[removedClock] = nil }
            try record.write(in: connection)
        }
    }

    // MARK: - Pulling

    /// Writes a pulled page: each item as the hub has it, unless this home
    /// changed it since it last pushed (that change goes out with the next
    /// push and the hub merges; the item comes back merged). Returns how
    /// many items it changed here.
    func apply(page: [SyncDocuments.Pulled], cursor: Int64, epoch: String, remote: Remote) throws -> Int {
        var written = 0
        var latest: Int64 = 0
        for pulled in page {
            latest = max(latest, pulled.clocks.values.max() ?? 0)
            let kind = pulled.kind
            let stored = try kind.read(uid: pulled.uid, in: connection)
            let record = try SyncRecord.read(uid: pulled.uid, in: connection)
            if let stored, stored.rev > remote.pushedThrough, stored.rev != record?.rev { continue }
            if stored == nil, try connection.queryFirst(
                "SELECT 1 FROM sync_removed WHERE uid = ? AND rev > ?", pulled.uid, remote.pushedThrough, map: { _ in true }) == true {
                continue
            }
            var rev = stored?.rev ?? 0
            if pulled.values == nil {
                // A tombstone keeps the number of its removal here, so a full
                // copy can send it again.
                if stored != nil { try kind.remove(uid: pulled.uid, in: connection); written += 1 }
                rev = try connection.queryFirst("SELECT rev FROM sync_removed WHERE uid = ?", pulled.uid) { $0.int64(0) }
                    ?? (record?.isRemoved == true ? record!.rev : 0)
            } else if let values = pulled.values {
                if stored?.values != values {
                    rev = try kind.write(uid: pulled.uid, values, updatedAt: clock.now(), in: connection, home: place)
                    written += 1
                }
            }
            try connection.execute("DELETE FROM sync_removed WHERE uid = ?", pulled.uid)
            try SyncRecord(uid: pulled.uid, kind: kind, rev: rev, seq: pulled.seq, values: pulled.values,
                           clocks: pulled.clocks).write(in: connection)
        }
        try SyncedTimers.tiePendingLinks(in: connection)
        try connection.execute("UPDATE sync_state SET hlc = max(hlc, ?)", latest)
        try connection.execute("UPDATE sync_remote SET cursor = ?, epoch = ?", cursor, epoch)
        return written
    }

    /// The next scan of local changes starts at `rev`.
    func scanned(through rev: Int64) throws {
        try connection.execute("UPDATE sync_state SET published_rev = ?", rev)
    }

    /// Changes made here and not yet acknowledged by the hub.
    func waitingCount(remote: Remote) throws -> Int {
        let outgoing = try outgoing(remote: remote)
        return try changes(outgoing.candidates[...], fullCopy: outgoing.isFullCopy).count
    }
}
