#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// Voice memos: the `voice_memos` tables and the library folder that holds
/// their audio (`voice/` in the data home).
///
/// ## Files and rows
/// A memo's file is `voice/<id>-<checksum>.<ext>`. New audio is written to a
/// temporary `voice/.<purpose>-<random>.part`, held under `flock` while it is
/// written, fsynced, then renamed to its final name *inside* the write
/// transaction that inserts its row, and the folder is fsynced before the
/// commit. Removal commits first and unlinks after. So a crash can leave a
/// file without a row (a temporary, or a final name between rename and
/// commit, or between commit and unlink), but never a row without its file.
///
/// Those leftovers are removed by `removeLeftovers()`, which each writing
/// command runs first, under the write lock: no other process is then
/// between a rename and its commit, so a final name without a row is a
/// leftover; a temporary is one when its `flock` is free, whatever its age
/// (see `TemporaryFile`). `verify()` reports them without removing anything.
public final class VoiceStore {
    /// The database, with `migrations` applied.
    public let connection: Connection
    /// The library folder (`voice/` in the data home).
    public let directory: String
    let clock: WallClock
    var hasRemovedLeftovers = false

    /// A store over `connection` (with `migrations` applied) whose audio lives
    /// in `directory`, created on first write.
    public init(connection: Connection, directory: String, clock: WallClock = SystemWallClock()) {
        self.connection = connection
        self.directory = directory
        self.clock = clock
    }

    // MARK: Reading

    /// The memo with `id`; `.notFound` when there is none.
    public func memo(id: Int64) throws -> VoiceMemo {
        let memos = try connection.query("SELECT \(VoiceStore.columns) FROM voice_memos WHERE id = ?", id,
                                         map: VoiceStore.memo(from:))
        guard let memo = memos.first else { throw VoiceStore.notFound(id) }
        return try withTags(memo)
    }

    /// All memos, oldest first; only those carrying `tag` (in any ASCII
    /// case, as `Tags` compares tags) when given.
    public func memos(taggedWith tag: String? = nil) throws -> [VoiceMemo] {
        try connection.readTransaction {
            let memos: [VoiceMemo]
            if let tag {
                memos = try connection.query("""
                    SELECT \(VoiceStore.columns) FROM voice_memos
                    WHERE id IN (SELECT memo_id FROM voice_memo_tags WHERE tag = ? COLLATE NOCASE) ORDER BY id
                    """, tag, map: VoiceStore.memo(from:))
            } else {
                memos = try connection.query("SELECT \(VoiceStore.columns) FROM voice_memos ORDER BY id",
                                             map: VoiceStore.memo(from:))
            }
            return try attachTags(memos)
        }
    }

    /// The `limit` newest memos, newest first, and how many there are in all
    /// (for the main screen).
    public func latest(limit: Int) throws -> (memos: [VoiceMemo], total: Int) {
        try connection.readTransaction {
            let memos = try connection.query("""
                SELECT \(VoiceStore.columns) FROM voice_memos ORDER BY imported_at DESC, id DESC LIMIT ?
                """, limit, map: VoiceStore.memo(from:))
            let total = try connection.queryFirst("SELECT count(*) FROM voice_memos") { $0.int(0) } ?? 0
            return (try attachTags(memos), total)
        }
    }

    /// Memos whose title contains `text` (ASCII letters in any case; Korean
    /// and other text as written), newest first. For `memoapp search`.
    public func searchTitles(matching text: String) throws -> [VoiceMemo] {
        guard !text.isEmpty else { return [] }
        let pattern = "%" + VoiceStore.escapeLike(text) + "%"
        let memos = try connection.query("""
            SELECT \(VoiceStore.columns) FROM voice_memos
            WHERE title LIKE ? ESCAPE '\\' ORDER BY imported_at DESC, id DESC
            """, pattern, map: VoiceStore.memo(from:))
        return try attachTags(memos)
    }

    /// The stored waveform peaks of memo `id`.
    public func peaks(id: Int64) throws -> WaveformPeaks {
        let row = try connection.queryFirst("""
            SELECT m.frames, p.samples_per_pixel, p.data FROM voice_memos m
            JOIN voice_memo_peaks p ON p.memo_id = m.id WHERE m.id = ?
            """, id) { ($0.int64(0), $0.int(1), $0.blob(2)) }
        guard let (frames, samplesPerPixel, blob) = row else { throw VoiceStore.notFound(id) }
        guard let peaks = WaveformPeaks(samplesPerPixel: samplesPerPixel, frames: frames, blob: blob) else {
            throw MemoError(.storage, en: "the stored peaks of voice memo \(id) are malformed",
                            ko: "음성 메모 \(id)의 저장된 파형 데이터가 잘못되었습니다")
        }
        return peaks
    }

    /// The path of a memo's audio file.
    public func path(of memo: VoiceMemo) -> String {
        directory + "/" + memo.fileName
    }

    // MARK: Changing

    /// Gives memo `id` a new title.
    public func rename(id: Int64, title: String) throws -> VoiceMemo {
        let title = try VoiceStore.validTitle(title)
        try connection.writeTransaction {
            try connection.execute("UPDATE voice_memos SET title = ?, updated_at = ? WHERE id = ?",
                                   title, clock.now().secondsSince1970, id)
            if connection.changes == 0 { throw VoiceStore.notFound(id) }
        }
        return try memo(id: id)
    }

    /// Removes memos and their files. Every id must exist, or nothing is removed.
    /// Rows go first (one transaction), files after it commits (the caller's
    /// transaction, when this runs inside one): a crash in between leaves
    /// files that the next writing command removes.
    @discardableResult
    public func remove(ids: [Int64]) throws -> [VoiceMemo] {
        try removeLeftovers()
        return try connection.writeTransaction {
            var memos: [VoiceMemo] = []
            for id in ids where !memos.contains(where: { $0.id == id }) {
                memos.append(try memo(id: id))
            }
            for memo in memos {
                try connection.execute("DELETE FROM voice_memos WHERE id = ?", memo.id)
            }
            let paths = memos.map(path(of:))
            try connection.afterCommit { [directory] in
                for path in paths { try FileSystem.removeFile(path) }
                if !paths.isEmpty { try FileSystem.fsyncDirectory(directory) }
            }
            return memos
        }
    }

    // MARK: - Shared with the other parts of the store

    static let columns = """
        id, title, original_name, file_name, container, encoding, format_code, sample_rate, channels, \
        frames, size, peak_level, checksum, imported_at, updated_at, uid, rev
        """

    static func memo(from row: Row) -> VoiceMemo {
        var memo = VoiceMemo(id: row.int64(0), uid: row.string(15), title: row.string(1), originalName: row.string(2), fileName: row.string(3),
                  container: row.string(4), encoding: row.string(5), formatCode: Int32(truncatingIfNeeded: row.int64(6)),
                  sampleRate: row.int(7), channels: row.int(8), frames: row.int64(9), size: row.int64(10),
                  peakLevel: row.double(11), checksum: row.string(12),
                  importedAt: Timestamp(secondsSince1970: row.double(13)),
                  updatedAt: row.optionalDouble(14).map { Timestamp(secondsSince1970: $0) }, tags: [])
        memo.rev = row.int64(16)
        return memo
    }

    static func notFound(_ id: Int64) -> MemoError {
        MemoError(.notFound, en: "no voice memo with id \(id)", ko: "id가 \(id)인 음성 메모가 없습니다")
    }

    static func duplicateUID(_ uid: String) -> MemoError {
        MemoError(.duplicate, en: "a voice memo with uid \(uid) already exists",
                  ko: "uid가 \(uid)인 음성 메모가 이미 있습니다")
    }

    /// `title` trimmed; a usage error when empty or more than one line.
    public static func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingSpaces()
        guard !trimmed.isEmpty else {
            throw MemoError(.usage, en: "a title cannot be empty", ko: "제목은 비워 둘 수 없습니다")
        }
        guard !trimmed.hasLineBreak else {
            throw MemoError(.usage, en: "a title must be one line", ko: "제목은 한 줄이어야 합니다")
        }
        return trimmed
    }

    func withTags(_ memo: VoiceMemo) throws -> VoiceMemo {
        let rev = memo.rev
        var memo = memo
        memo = VoiceMemo(id: memo.id, uid: memo.uid, title: memo.title, originalName: memo.originalName, fileName: memo.fileName,
                         container: memo.container, encoding: memo.encoding, formatCode: memo.formatCode,
                         sampleRate: memo.sampleRate, channels: memo.channels, frames: memo.frames, size: memo.size,
                         peakLevel: memo.peakLevel, checksum: memo.checksum, importedAt: memo.importedAt,
                         updatedAt: memo.updatedAt,
                         tags: try connection.query("SELECT tag FROM voice_memo_tags WHERE memo_id = ? ORDER BY tag",
                                                    memo.id) { $0.string(0) })
        memo.rev = rev
        return memo
    }

    func attachTags(_ memos: [VoiceMemo]) throws -> [VoiceMemo] {
        try memos.map(withTags)
    }

    /// Creates the library folder when needed.
    func prepareDirectory() throws {
        try FileSystem.makeDirectory(directory)
    }

    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

extension String {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
