import MemoCore
import SQLite

/// A data home as the hub devices sync with (`memoapp serve`): it publishes
/// its own changes, answers pulls after a cursor, and merges pushed
/// changes by the rules of docs/sync.md (`SyncHub+Merge`). Every call runs
/// inside the caller's write transaction.
public struct SyncHub {
    let connection: Connection
    let clock: WallClock

    public init(_ workspace: Workspace) throws {
        connection = try workspace.database()
        clock = workspace.clock
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
    /// stamp and the item a new sequence number, so devices pull it.
    public func publishLocalChanges() throws {
        let published = try connection.queryFirst("SELECT published_rev FROM sync_state") { $0.int64(0) } ?? 0
        let newest = try LocalChanges.newestRev(in: connection)
        guard newest != published else { return }
        var latest = try latestStamp()
        for candidate in try LocalChanges.since(published, in: connection) {
            guard let change = try LocalChanges.resolve(candidate, fullCopy: false, in: connection) else { continue }
            var record = change.record ?? SyncRecord(uid: change.uid, kind: change.kind, rev: 0, seq: 0, values: nil, clocks: [:])
            latest = HybridClock.next(after: latest, now: change.stored?.updatedAt ?? clock.now())
            if let stored = change.stored {
                for field in change.changedFields { record.clocks[field] = latest }
                record.clocks[removedClock] = nil
                record.values = stored.values
                record.rev = stored.rev
            } else {
                record.values = nil
                record.clocks[removedClock] = latest
                try connection.execute("DELETE FROM sync_removed WHERE uid = ?", change.uid)
            }
            record.seq = try nextSeq()
            try record.write(in: connection)
        }
        try connection.execute("UPDATE sync_state SET published_rev = ?, hlc = ?", newest, latest)
    }

    /// A page of what changed after `cursor`: each item once, as it is
    /// now, in the order of its latest change.
    public func pull(after cursor: Int64, limit: Int) throws -> JSON {
        let rows = try connection.query("""
            SELECT uid, kind, rev, seq, vals, clocks FROM sync_items WHERE seq > ? ORDER BY seq LIMIT ?
            """, cursor, limit + 1) { try SyncRecord.record(uid: $0.string(0), $0, offset: 1) }
        let records = rows.compactMap { $0 }
        let page = records.prefix(limit)
        let changes = page.map {
            SyncDocuments.json(SyncDocuments.Pulled(kind: $0.kind, uid: $0.uid, seq: $0.seq, values: $0.values,
                                                    clocks: $0.clocks))
        }
        return .object([("epoch", .string(try epoch())), ("cursor", .int(page.last?.seq ?? max(cursor, 0))),
                        ("more", .bool(records.count > limit)), ("changes", .array(changes))])
    }

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
