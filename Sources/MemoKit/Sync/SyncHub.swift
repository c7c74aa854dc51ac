import MemoCore
import SQLite

/// A data home as the hub devices sync with (`memoapp serve`): it publishes
/// its own changes, answers pulls after a cursor, and merges pushed
/// changes by the rules of docs/sync.md (`SyncHub+Merge`). Every call runs
/// inside the caller's write transaction.
public struct SyncHub {
    let connection: Connection
    let clock: WallClock
    let place: SyncPlace

    public init(_ workspace: Workspace) throws {
        connection = try workspace.database()
        clock = workspace.clock
        place = SyncPlace(voiceDirectory: workspace.home.voiceDirectory, clock: workspace.clock)
    }

    /// The hub's epoch: a new one after a restore or a bulk write.
    public func epoch() throws -> String {
        try connection.queryFirst("SELECT epoch FROM sync_state") { $0.string(0) } ?? ""
    }

    /// Refuses a device that names an epoch other than this hub's; a device
    /// that names none is meeting the hub for the first time.
    public func check(epoch: String?) throws {
        guard try !SyncDevice.isConfigured(connection) else {
            throw MemoError(.invalidState, en: "this data home syncs with another server: it is a device, not a hub",
                            ko: "이 데이터 홈은 다른 서버와 동기화하는 기기이므로 허브가 될 수 없습니다")
        }
        guard let epoch, epoch != (try self.epoch()) else { return }
        throw MemoError(.invalidState, hint: .syncEpochChanged,
                        en: "the server's data was replaced (a restore): its epoch is not \(epoch)",
                        ko: "서버의 데이터가 바뀌었습니다(복원): epoch가 \(epoch)이 아닙니다")
    }

    /// Publishes the changes made here since the last publish (by the
    /// page, the API, the command line, undo): each changed field gets a
    /// stamp and the item a new sequence number, so devices pull it. At
    /// most `limit` items a call, so that the first publish of a large home
    /// is many short transactions, not one that holds every writer back;
    /// returns whether everything is published. An item published by an
    /// earlier call is not published again (its record's rev is its own).
    @discardableResult
    public func publishLocalChanges(limit: Int = .max) throws -> Bool {
        let published = try connection.queryFirst("SELECT published_rev FROM sync_state") { $0.int64(0) } ?? 0
        let newest = try LocalChanges.newestRev(in: connection)
        guard newest != published else { return true }
        var latest = try latestStamp()
        var written = 0
        for candidate in try LocalChanges.since(published, in: connection) {
            guard let change = try LocalChanges.resolve(candidate, fullCopy: false, in: connection) else { continue }
            guard written < limit else {
                try connection.execute("UPDATE sync_state SET hlc = ?", latest)
                return false
            }
            written += 1
            var record = change.record ?? SyncRecord(uid: change.uid, kind: change.kind, rev: 0, seq: 0, values: nil, clocks: [:])
            if let stored = change.stored {
                // Stamped when it was made, after the value it replaced.
                for field in change.changedFields {
                    record.clocks[field] = HybridClock.next(after: record.clocks[field] ?? 0, now: stored.updatedAt)
                    latest = max(latest, record.clocks[field]!)
                }
                record.clocks[removedClock] = nil
                record.values = stored.values
                record.rev = stored.rev
            } else {
                record.values = nil
                record.clocks[removedClock] = HybridClock.next(after: record.latestClock, now: clock.now())
                latest = max(latest, record.clocks[removedClock]!)
                try connection.execute("DELETE FROM sync_removed WHERE uid = ?", change.uid)
            }
            record.seq = try nextSeq()
            try record.write(in: connection)
        }
        try connection.execute("UPDATE sync_state SET published_rev = ?, hlc = ?", newest, latest)
        return true
    }

    /// A page of what changed after `cursor`: each item once, as it is
    /// now, in the order of its latest change; at most `limit` items and,
    /// past the first, `pageBytes` bytes (a page of long memos would
    /// otherwise be gigabytes held at once).
    public func pull(after cursor: Int64, limit: Int, counting: Bool = false) throws -> JSON {
        var changes: [JSON] = []
        var bytes = 0
        var last = max(cursor, 0)
        var more = false
        try connection.forEachRow(
            "SELECT uid, kind, rev, seq, vals, clocks FROM sync_items WHERE seq > ? ORDER BY seq LIMIT ?",
            arguments: [.integer(cursor), .integer(Int64(limit) + 1)]) { row in
            guard changes.count < limit, bytes < SyncHub.pageBytes else {
                more = true
                return false
            }
            guard let record = try SyncRecord.record(uid: row.string(0), row, offset: 1) else { return true }
            let change = SyncDocuments.json(SyncDocuments.Pulled(kind: record.kind, uid: record.uid, seq: record.seq,
                                                                 values: record.values, clocks: record.clocks))
            bytes += change.serializedBytes.count
            changes.append(change)
            last = record.seq
            return true
        }
        var members: [(String, JSON)] = [("epoch", .string(try epoch())), ("cursor", .int(last)), ("more", .bool(more)),
                                         ("changes", .array(changes))]
        if counting {
            // How many items are left after this page, for a device's progress.
            let remaining = try connection.queryFirst("SELECT count(*) FROM sync_items WHERE seq > ?", last) { $0.int64(0) } ?? 0
            members.append(("remaining", .int(remaining)))
        }
        return .object(members)
    }

    /// The bytes of changes a pull page stops after.
    static let pageBytes = 4 << 20

    // MARK: - Shared with the merge

    func latestStamp() throws -> Int64 {
        try connection.queryFirst("SELECT hlc FROM sync_state") { $0.int64(0) } ?? 0
    }

    func nextSeq() throws -> Int64 {
        try connection.execute("UPDATE sync_state SET seq = seq + 1")
        return try connection.queryFirst("SELECT seq FROM sync_state") { $0.int64(0) } ?? 0
    }
}

extension MemoError.Hint {
    /// The hub was replaced: take a fresh copy and send everything again.
    public static let syncEpochChanged = MemoError.Hint(rawValue: "sync_epoch_changed")
    /// The hub expected another change number: send a full copy.
    public static let syncOutOfOrder = MemoError.Hint(rawValue: "sync_out_of_order")
}
