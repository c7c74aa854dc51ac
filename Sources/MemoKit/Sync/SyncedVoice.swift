import MemoCore
import SQLite
import VoiceMemos

/// Voice memos as sync knows them (docs/sync.md): a title, tags, where the
/// audio came from and when, and the audio itself by its checksum. The
/// audio crosses as a blob before the change that names it; what a device
/// knows of it (length, format, peaks) it reads from the bytes itself, as
/// an import does, so nothing computed travels and nothing computed can
/// disagree.
enum SyncedVoice {
    private typealias Column = SyncedKind.Column
    private typealias Field = SyncedKind.Field

    static let kind = SyncedKind(
        kind: .voice, table: "voice_memos", tagTable: "voice_memo_tags", tagItemColumn: "memo_id",
        fields: [
            Field(name: "title", columns: [Column(name: "title", type: .text, isNullable: false)]),
            Field(name: "tags", columns: []),
            Field(name: "created", columns: [Column(name: "original_name", type: .text, isNullable: false),
                                             Column(name: "imported_at", type: .number, isNullable: false)]),
            Field(name: "audio", columns: [Column(name: "checksum", type: .text, isNullable: false)]),
        ],
        mergedText: nil)

    /// The longest name of where a recording came from that a device may send.
    static let maximumOriginalNameBytes = 1_024

    static func read(where condition: String, _ key: SQLiteValue, in connection: Connection) throws -> SyncedKind.Stored? {
        guard let row = try connection.queryFirst(
            """
            SELECT id, uid, rev, title, original_name, imported_at, checksum, ifnull(updated_at, imported_at)
            FROM voice_memos WHERE \(condition)
            """, arguments: [key], map: { row in
                (id: row.int64(0), uid: row.optionalString(1) ?? "", rev: row.int64(2), title: row.string(3),
                 originalName: row.string(4), importedAt: row.double(5), checksum: row.string(6), updatedAt: row.double(7))
            }) else { return nil }
        let tags = try connection.query("SELECT tag FROM voice_memo_tags WHERE memo_id = ? ORDER BY tag", row.id) {
            $0.string(0)
        }
        return SyncedKind.Stored(id: row.id, uid: row.uid, rev: row.rev, updatedAt: Timestamp(secondsSince1970: row.updatedAt),
                                 values: .init(
            columns: ["title": .text(row.title), "original_name": .text(row.originalName),
                      "imported_at": .real(row.importedAt), "checksum": .text(row.checksum)],
            tags: tags))
    }

    /// Writes the voice memo `uid` as `values` say. New here, or with other
    /// audio (trimmed elsewhere), it is made from the audio's blob (which
    /// must have arrived) under the same uid; else its title, origin and
    /// tags change in place.
    static func write(uid: String, _ values: SyncedKind.Values, in connection: Connection, library: String,
                      clock: WallClock) throws -> Int64 {
        let title = values.columns["title"]?.textValue ?? ""
        let originalName = values.columns["original_name"]?.textValue ?? ""
        let importedAt = values.columns["imported_at"].flatMap { value -> Double? in
            if case .real(let seconds) = value { return seconds }
            if case .integer(let seconds) = value { return Double(seconds) }
            return nil
        } ?? 0
        let checksum = values.columns["checksum"]?.textValue ?? ""
        let tags = values.tags.sorted()
        let existing = try connection.queryFirst("SELECT id, checksum FROM voice_memos WHERE uid = ?", uid) {
            (id: $0.int64(0), checksum: $0.string(1))
        }
        let id: Int64
        if let existing, existing.checksum == checksum {
            try connection.execute("UPDATE voice_memos SET title = ?, original_name = ?, imported_at = ? WHERE id = ?",
                                   title, originalName, importedAt, existing.id)
            try connection.execute("DELETE FROM voice_memo_tags WHERE memo_id = ?", existing.id)
            for tag in tags {
                try connection.execute("INSERT OR IGNORE INTO voice_memo_tags (memo_id, tag) VALUES (?, ?)", existing.id, tag)
            }
            id = existing.id
        } else {
            if let existing { try connection.execute("DELETE FROM voice_memos WHERE id = ?", existing.id) }
            let store = VoiceStore(connection: connection, directory: library, clock: clock)
            id = try store.importSynced(checksum: checksum, uid: uid, title: title, originalName: originalName, tags: tags,
                                        importedAt: Timestamp(secondsSince1970: importedAt)).id
        }
        return try connection.queryFirst("SELECT rev FROM voice_memos WHERE id = ?", id) { $0.int64(0) } ?? 0
    }

    /// Refuses what no front end could store: a title a voice memo cannot
    /// have, a checksum not in its form, an origin that is no file name.
    static func validate(_ columns: [String: SQLiteValue]) throws {
        let title = columns["title"]?.textValue ?? ""
        guard try VoiceStore.validTitle(title) == title else {
            throw MemoError(.badInput, en: "a voice memo's title is one trimmed line", ko: "음성 메모 제목은 앞뒤 공백 없는 한 줄입니다")
        }
        guard VoiceStore.isChecksum(columns["checksum"]?.textValue ?? "") else {
            throw MemoError(.badInput, en: "a voice memo's checksum is 32 lowercase hex digits",
                            ko: "음성 메모의 checksum은 소문자 16진수 32자리입니다")
        }
        let name = columns["original_name"]?.textValue ?? ""
        guard !name.isEmpty, name.utf8.count <= maximumOriginalNameBytes, !name.contains("/"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw MemoError(.badInput, en: "a voice memo's original_name is a file's name",
                            ko: "음성 메모의 original_name은 파일 이름입니다")
        }
    }
}
