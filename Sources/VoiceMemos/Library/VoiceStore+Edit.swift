import MemoCore
import SQLite

extension VoiceStore {
    /// Gives memo `id` a new title (when `title` is given) and changes its
    /// tags, in one transaction; the memo's `updated_at` moves only when
    /// something changed.
    /// - Throws: `.usage` for a blank or multi-line title or a tag that is
    ///   not one word (see `Tags`);
    ///   `.notFound` when there is no such memo.
    public func edit(id: Int64, title: String? = nil, tags changes: TagChanges = TagChanges()) throws -> VoiceMemo {
        let title = try title.map(VoiceStore.validTitle)
        let changes = try changes.cleaned(by: Tags.normalized(_:))
        return try connection.writeTransaction {
            let memo = try memo(id: id)
            let newTags = changes.applied(to: memo.tags)
            // Voice memos show their tags sorted: compare as sets.
            let tagsChanged = Set(newTags) != Set(memo.tags)
            let titleChanged = title.map { $0 != memo.title } ?? false
            guard tagsChanged || titleChanged else { return memo }
            try connection.execute("UPDATE voice_memos SET title = ?, updated_at = ? WHERE id = ?",
                                   title ?? memo.title, clock.now().secondsSince1970, id)
            if tagsChanged {
                try connection.execute("DELETE FROM voice_memo_tags WHERE memo_id = ?", id)
                for tag in newTags {
                    try connection.execute("INSERT INTO voice_memo_tags (memo_id, tag) VALUES (?, ?)", id, tag)
                }
            }
            return try self.memo(id: id)
        }
    }
}
