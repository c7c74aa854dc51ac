import SQLite

/// What a shell offers on Tab for voice memos: ids with their titles, and
/// their tags; newest first, at most `limit` (see `NotesCompletion`).
public enum VoiceCompletion {
    public static func memos(limit: Int, in connection: Connection) throws -> [(id: Int64, title: String)] {
        try connection.query("SELECT id, title FROM voice_memos ORDER BY id DESC LIMIT ?", limit) { row in
            (row.int64(0), row.string(1))
        }
    }

    public static func tags(limit: Int, in connection: Connection) throws -> [String] {
        try connection.query("SELECT tag FROM voice_memo_tags GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ?", limit) {
            $0.string(0)
        }
    }
}
