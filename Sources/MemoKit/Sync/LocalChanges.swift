import MemoCore
import SQLite

/// A change made in this home that sync has not recorded yet: an item
/// whose rev differs from its record's, or one removed since it was
/// recorded. Found the same way on a hub (its own edits, to publish) and on
/// a device (its edits, to push), whoever wrote them: no front end tells
/// sync anything, the rows do.
struct LocalChange {
    let kind: SyncedKind
    let uid: String
    /// The number of the change here (the item's rev, or the removal's
    /// entry in the change log): increasing, a device's change id.
    let number: Int64
    /// The item as stored now; nil when it was removed.
    let stored: SyncedKind.Stored?
    let record: SyncRecord?
    /// The fields whose values differ from the record's (every field of
    /// an item the record lacks); empty for a removal.
    let changedFields: [String]
}

enum LocalChanges {
    /// Changes after rev `after`, in the order they were made. Reads the
    /// change log after that entry when the log still holds it; else (a
    /// first sync, a log pruned past it, a bulk write) every item, a
    /// range of ids at a time.
    static func since(_ after: Int64, in connection: Connection) throws -> [LocalChange] {
        var changes: [LocalChange] = []
        for kind in SyncedKind.all {
            for id in try candidateIDs(of: kind, after: after, in: connection) {
                guard let stored = try kind.read(id: id, in: connection), !stored.uid.isEmpty else { continue }
                if let change = try change(kind, stored, in: connection) { changes.append(change) }
            }
        }
        changes += try removals(in: connection)
        return changes.sorted { $0.number < $1.number }
    }

    /// Every item and every removal sync knows of, as a full copy to send a
    /// hub that lost what it had (a new epoch): unchanged items too.
    static func everything(in connection: Connection) throws -> [LocalChange] {
        var changes: [LocalChange] = []
        for kind in SyncedKind.all {
            let ids = try connection.query("SELECT id FROM \(kind.table) WHERE uid IS NOT NULL ORDER BY id") { $0.int64(0) }
            for id in ids {
                guard let stored = try kind.read(id: id, in: connection) else { continue }
                let record = try SyncRecord.read(uid: stored.uid, in: connection)
                changes.append(LocalChange(kind: kind, uid: stored.uid, number: stored.rev, stored: stored, record: record,
                                           changedFields: changedFields(kind, stored, record)))
            }
        }
        changes += try removals(in: connection)
        let tombstones = try connection.query("SELECT uid, kind, rev, seq, vals, clocks FROM sync_items WHERE is_removed") {
            try SyncRecord.record(uid: $0.string(0), $0, offset: 1)
        }
        for case let record? in tombstones where !changes.contains(where: { $0.uid == record.uid }) {
            changes.append(LocalChange(kind: record.kind, uid: record.uid, number: record.rev, stored: nil,
                                       record: record, changedFields: []))
        }
        return changes.sorted { $0.number < $1.number }
    }

    /// The newest rev of this home: where the next scan starts.
    static func newestRev(in connection: Connection) throws -> Int64 {
        try Revisions.newest(in: connection)
    }

    // MARK: - Private

    private static func change(_ kind: SyncedKind, _ stored: SyncedKind.Stored,
                               in connection: Connection) throws -> LocalChange? {
        let record = try SyncRecord.read(uid: stored.uid, in: connection)
        if let record, !record.isRemoved, record.rev == stored.rev { return nil }
        return LocalChange(kind: kind, uid: stored.uid, number: stored.rev, stored: stored, record: record,
                           changedFields: changedFields(kind, stored, record))
    }

    static func changedFields(_ kind: SyncedKind, _ stored: SyncedKind.Stored, _ record: SyncRecord?) -> [String] {
        guard let base = record?.values else { return kind.fieldNames }
        return kind.fields.filter { field in
            field.name == "tags" ? stored.values.tags != base.tags : stored.values.field(field) != base.field(field)
        }.map(\.name)
    }

    /// The items removed here that sync knew of. A removal of an item sync
    /// never recorded (made and removed between two syncs), or of one that
    /// is back (an undo), is forgotten.
    private static func removals(in connection: Connection) throws -> [LocalChange] {
        let removed = try connection.query("SELECT uid, kind, rev FROM sync_removed ORDER BY rev") {
            ($0.string(0), $0.string(1), $0.int64(2))
        }
        var changes: [LocalChange] = []
        for (uid, kindName, number) in removed {
            guard let kind = SyncedKind.named(kindName) else { continue }
            let isBack = try kind.read(uid: uid, in: connection) != nil
            guard !isBack, let record = try SyncRecord.read(uid: uid, in: connection), !record.isRemoved else {
                try connection.execute("DELETE FROM sync_removed WHERE uid = ?", uid)
                continue
            }
            changes.append(LocalChange(kind: kind, uid: uid, number: number, stored: nil, record: record, changedFields: []))
        }
        return changes
    }

    /// The ids of `kind`'s items that may have changed after rev `after`.
    private static func candidateIDs(of kind: SyncedKind, after: Int64, in connection: Connection) throws -> [Int64] {
        if after > 0, try logHolds(after: after, in: connection) {
            return try connection.query(
                "SELECT DISTINCT item_id FROM item_changes WHERE seq > ? AND kind = ? AND action <> 'everything'",
                after, kind.kind.rawValue) { $0.int64(0) }
        }
        // Every item whose record is missing or older: the join is by uid,
        // a range of ids at a time so a million items are not held at once.
        guard let (lowest, highest) = try connection.queryFirst("SELECT min(id), max(id) FROM \(kind.table)", map: {
            row -> (Int64, Int64)? in row.isNull(0) ? nil : (row.int64(0), row.int64(1))
        }) ?? nil else { return [] }
        var ids: [Int64] = []
        for start in stride(from: lowest, through: highest, by: 20_000) {
            ids += try connection.query("""
                SELECT t.id FROM \(kind.table) t LEFT JOIN sync_items s ON s.uid = t.uid
                WHERE t.id BETWEEN ? AND ? AND (s.uid IS NULL OR s.rev <> t.rev OR s.is_removed)
                """, start, start + 19_999) { $0.int64(0) }
        }
        return ids
    }

    /// Whether the change log still holds every entry after `after` and none
    /// of them is a bulk write's `everything`.
    private static func logHolds(after: Int64, in connection: Connection) throws -> Bool {
        let oldest = try connection.queryFirst("SELECT min(seq) FROM item_changes") { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        guard let oldest else {
            // An empty log holds everything only if nothing came after.
            return try Revisions.newest(in: connection) <= after
        }
        guard oldest <= after + 1 else { return false }
        let bulk = try connection.queryFirst(
            "SELECT 1 FROM item_changes WHERE seq > ? AND action = 'everything' LIMIT 1", after) { _ in true } ?? false
        return !bulk
    }
}
