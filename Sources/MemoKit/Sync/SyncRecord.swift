import MemoCore
import SQLite

/// An item as sync last knew it (a row of `sync_items`): on a hub, what
/// devices pull; on a device, the base its own changes are told against
/// and the memo text a line merge starts from.
struct SyncRecord {
    let uid: String
    let kind: SyncedKind
    /// The item's rev in this home when the record was written: an item
    /// whose rev differs was changed here since.
    var rev: Int64
    /// On a hub, the sequence number pulls page by.
    var seq: Int64
    /// nil for a removed item (a tombstone).
    var values: SyncedKind.Values?
    /// Each field's stamp (`HybridClock`); a removal's under `removed`.
    var clocks: [String: Int64]

    var isRemoved: Bool { values == nil }

    /// The stamp of the latest change of any field (and of the removal).
    var latestClock: Int64 { clocks.values.max() ?? 0 }

    static func read(uid: String, in connection: Connection) throws -> SyncRecord? {
        try connection.queryFirst("SELECT kind, rev, seq, vals, clocks FROM sync_items WHERE uid = ?", uid) { row in
            try record(uid: uid, row, offset: 0)
        } ?? nil
    }

    /// The record in a row of kind, rev, seq, vals, clocks from `offset` on.
    static func record(uid: String, _ row: Row, offset: Int) throws -> SyncRecord? {
        guard let kind = SyncedKind.named(row.string(offset)) else { return nil }
        let values = row.isNull(offset + 3)
            ? nil : try kind.values(from: JSONReader(parsing: Array(row.string(offset + 3).utf8)), isOwnRecord: true)
        let clocks = try decodeClocks(row.string(offset + 4))
        return SyncRecord(uid: uid, kind: kind, rev: row.int64(offset + 1), seq: row.int64(offset + 2),
                          values: values, clocks: clocks)
    }

    func write(in connection: Connection) throws {
        try connection.execute("""
            INSERT OR REPLACE INTO sync_items (uid, kind, rev, seq, is_removed, vals, clocks)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, uid, kind.kind.rawValue, rev, seq, isRemoved, values.map { kind.json($0).serialized },
            Self.encodeClocks(clocks).serialized)
    }

    static func encodeClocks(_ clocks: [String: Int64]) -> JSON {
        .object(clocks.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    }

    static func decodeClocks(_ text: String) throws -> [String: Int64] {
        try decodeClocks(JSONReader(parsing: Array(text.utf8)))
    }

    static func decodeClocks(_ reader: JSONReader) throws -> [String: Int64] {
        var clocks: [String: Int64] = [:]
        for (key, value) in try reader.members() {
            let stamp = try value.int()
            guard stamp >= 0 else {
                throw MemoError(.badInput, en: "a clock is never negative", ko: "시계 값은 음수일 수 없습니다")
            }
            clocks[key] = stamp
        }
        return clocks
    }
}

/// The field of clocks that stamps a removal.
let removedClock = "removed"
