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
    /// A change known by its number before its values are read: a scan
    /// holds these (a few dozen bytes each), and reads each change's
    /// values only when it is sent, so a full copy of a million items
    /// is never held at once.
    struct Candidate {
        let number: Int64
        let kind: SyncedKind
        /// The item's id here; nil for a removal (or a tombstone).
        let id: Int64?
        let uid: String
    }

    /// Changes after rev `after`, in the order they were made. Reads the
    /// change log after that entry when the log still holds it; else (a
    /// first sync, a log pruned past it, a bulk write) every item, a
    /// range of ids at a time.
    static func since(_ after: Int64, in connection: Connection) throws -> [Candidate] {
        var candidates: [Candidate] = []
        for kind in SyncedKind.all {
            for (id, rev) in try candidateIDs(of: kind, after: after, in: connection) {
                candidates.append(Candidate(number: rev, kind: kind, id: id, uid: ""))
            }
        }
        candidates += try removals(in: connection)
        return candidates.sorted { $0.number < $1.number }
    }

    /// Every item and every removal sync knows of, as a full copy to send a
    /// hub that lost what it had (a new epoch): unchanged items too.
    static func everything(in connection: Connection) throws -> [Candidate] {
        var candidates: [Candidate] = []
        for kind in SyncedKind.all {
            candidates += try connection.query("SELECT id, rev FROM \(kind.table) WHERE uid IS NOT NULL") {
                Candidate(number: $0.int64(1), kind: kind, id: $0.int64(0), uid: "")
            }
        }
        let removed = try removals(in: connection)
        candidates += removed
        let pending = Set(removed.map(\.uid))
        // Tombstones: numbered by the removal's entry in this home's log
        // (0 for one never here: the hub told of it, it has it).
        for (uid, kindName, rev) in try connection.query(
            "SELECT uid, kind, rev FROM sync_items WHERE is_removed AND rev > 0", map: { ($0.string(0), $0.string(1), $0.int64(2)) })
        where !pending.contains(uid) {
            guard let kind = SyncedKind.named(kindName) else { continue }
            candidates.append(Candidate(number: rev, kind: kind, id: nil, uid: uid))
        }
        return candidates.sorted { $0.number < $1.number }
    }

    /// The change a candidate names, as it is now; nil when there is none
    /// to send (the item is as its record has it, or it is gone since).
    static func resolve(_ candidate: Candidate, fullCopy: Bool, in connection: Connection) throws -> LocalChange? {
        guard let id = candidate.id else {
            guard let record = try SyncRecord.read(uid: candidate.uid, in: connection) else { return nil }
            if try candidate.kind.read(uid: candidate.uid, in: connection) != nil { return nil }
            return LocalChange(kind: candidate.kind, uid: candidate.uid, number: candidate.number, stored: nil,
                               record: record, changedFields: [])
        }
        guard let stored = try candidate.kind.read(id: id, in: connection), !stored.uid.isEmpty else { return nil }
        let record = try SyncRecord.read(uid: stored.uid, in: connection)
        if !fullCopy, let record, !record.isRemoved, record.rev == stored.rev { return nil }
        return LocalChange(kind: candidate.kind, uid: stored.uid, number: stored.rev, stored: stored, record: record,
                           changedFields: changedFields(candidate.kind, stored, record))
    }

    /// The newest rev of this home: where the next scan starts.
    static func newestRev(in connection: Connection) throws -> Int64 {
        try Revisions.newest(in: connection)
    }

    // MARK: - Private

    static func changedFields(_ kind: SyncedKind, _ stored: SyncedKind.Stored, _ record: SyncRecord?) -> [String] {
        guard let base = record?.values else { return kind.fieldNames }
        return kind.fields.filter { field in
            field.name == "tags" ? stored.values.tags != base.tags : stored.values.field(field) != base.field(field)
        }.map(\.name)
    }

    /// The items removed here that sync knew of, and has not told yet. A
    /// removal of an item sync never recorded (made and removed between
    /// two syncs), or of one that is back (an undo), is forgotten.
    private static func removals(in connection: Connection) throws -> [Candidate] {
        let removed = try connection.query("SELECT uid, kind, rev FROM sync_removed ORDER BY rev") {
            ($0.string(0), $0.string(1), $0.int64(2))
        }
        var candidates: [Candidate] = []
        for (uid, kindName, number) in removed {
            guard let kind = SyncedKind.named(kindName) else { continue }
            let isBack = try kind.read(uid: uid, in: connection) != nil
            guard !isBack, let record = try SyncRecord.read(uid: uid, in: connection), !record.isRemoved else {
                try connection.execute("DELETE FROM sync_removed WHERE uid = ?", uid)
                continue
            }
            candidates.append(Candidate(number: number, kind: kind, id: nil, uid: uid))
        }
        return candidates
    }

    /// The ids and revs of `kind`'s items that may have changed after rev `after`.
    private static func candidateIDs(of kind: SyncedKind, after: Int64, in connection: Connection) throws -> [(Int64, Int64)] {
        if after > 0, try logHolds(after: after, in: connection) {
            return try connection.query("""
                SELECT t.id, t.rev FROM \(kind.table) t
                WHERE t.id IN (SELECT item_id FROM item_changes WHERE seq > ? AND kind = ? AND action <> 'everything')
                """, after, kind.kind.rawValue) { ($0.int64(0), $0.int64(1)) }
        }
        // Every item whose record is missing or older: the join is by uid,
        // a range of ids at a time so a million items are not held at once.
        guard let (lowest, highest) = try connection.queryFirst("SELECT min(id), max(id) FROM \(kind.table)", map: {
            row -> (Int64, Int64)? in row.isNull(0) ? nil : (row.int64(0), row.int64(1))
        }) ?? nil else { return [] }
        var ids: [(Int64, Int64)] = []
        for start in stride(from: lowest, through: highest, by: 20_000) {
            ids += try connection.query("""
                SELECT t.id, t.rev FROM \(kind.table) t LEFT JOIN sync_items s ON s.uid = t.uid
                WHERE t.id BETWEEN ? AND ? AND (s.uid IS NULL OR s.rev <> t.rev OR s.is_removed)
                """, start, start + 19_999) { ($0.int64(0), $0.int64(1)) }
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
