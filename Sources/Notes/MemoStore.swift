import MemoCore
import SQLite

/// Memos in the `memos` table. Every write is one transaction; removing
/// several ids removes all of them or none.
public final class MemoStore {
    /// The database the memos live in.
    public let connection: Connection
    let clock: any WallClock

    /// A store over `connection`, whose database has `NotesSchema.migrations`
    /// applied; `clock` stamps created and updated times.
    public init(connection: Connection, clock: any WallClock = SystemWallClock()) {
        self.connection = connection
        self.clock = clock
    }

    /// Adds a memo and returns it with its new id. Text that is empty or only
    /// white space is refused (bad input): there would be nothing to keep.
    /// - Parameter uid: its identity, for importers that carry one; a new
    ///   random UUID when nil.
    /// - Throws: `.badInput` for a uid not in UUID form, `.duplicate` when a
    ///   memo already has it.
    public func add(_ new: NewMemo, uid: String? = nil) throws -> Memo {
        try MemoStore.validate(text: new.text, isNew: true)
        try MemoStore.validate(title: new.title)
        let tags = try Tags.normalized(new.tags)
        let title = MemoStore.storedTitle(new.title)
        let uid = try UUID4.uid(uid)
        let now = clock.now()
        return try connection.writeTransaction {
            do {
                try connection.insertingRow(of: .memo) {
                    try connection.execute("""
                    INSERT INTO memos (uid, title, text, is_pinned, tags, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, uid, title, new.text, new.isPinned, TagColumn.joined(tags), now.secondsSince1970,
                    now.secondsSince1970)
                }
            } catch let error as SQLiteError where error.isUniqueViolation(table: "memos", column: "uid") {
                throw MemoError.duplicateUID(.memo, uid)
            }
            let id = connection.lastInsertRowID
            for tag in tags {
                try connection.execute("INSERT INTO memo_tags (memo_id, tag) VALUES (?, ?)", id, tag)
            }
            var memo = Memo(id: id, uid: uid, title: title, text: new.text, tags: tags, isPinned: new.isPinned,
                            createdAt: now, updatedAt: now)
            memo.rev = try connection.revision(of: "memos", id: id)
            return memo
        }
    }

    /// The memo with `id`, whole, or a not-found error.
    public func memo(id: Int64) throws -> Memo {
        let sql = "SELECT id, title, text, tags, is_pinned, created_at, updated_at, uid, rev, conflict_of FROM memos WHERE id = ?"
        guard let memo = try connection.queryFirst(sql, id, map: { row in
            var memo = Memo(id: row.int64(0), uid: row.string(7), title: row.optionalString(1), text: row.string(2),
                            tags: TagColumn.split(row.string(3)), isPinned: row.bool(4),
                            createdAt: Timestamp(secondsSince1970: row.double(5)),
                            updatedAt: Timestamp(secondsSince1970: row.double(6)))
            memo.rev = row.int64(8)
            memo.conflictOf = row.optionalString(9)
            return memo
        }) else { throw MemoError.notFound(.memo, ids: [id]) }
        return memo
    }

    /// Replaces the text, the title, or both (an empty title removes it),
    /// and changes the tags (cleaned by `Tags.normalized`), in one transaction.
    /// - Parameter seen: the memo as the new text was made from (shown in an
    ///   editor): when its text or title changed since, the edit is refused
    ///   rather than lose that change, checked in the same transaction.
    /// - Throws: `.invalidState` for such a change; `.usage` for a bad tag.
    public func edit(id: Int64, text: String? = nil, title: String? = nil, tags: TagChanges = TagChanges(),
                     madeFrom seen: Memo? = nil) throws -> Memo {
        if let text { try MemoStore.validate(text: text, isNew: false) }
        try MemoStore.validate(title: title)
        let tags = try tags.cleaned(by: Tags.normalized(_:))
        let now = clock.now()
        return try connection.writeTransaction {
            var memo = try memo(id: id)
            if let seen, memo.text != seen.text || memo.title != seen.title {
                throw MemoError(.invalidState, en: "memo #\(id) was changed elsewhere while it was being edited; nothing was saved",
                                ko: "메모 #\(id)이(가) 편집하는 동안 다른 곳에서 바뀌었습니다. 아무것도 저장하지 않았습니다")
            }
            if let text { memo.text = text }
            if let title { memo.title = MemoStore.storedTitle(title) }
            memo.updatedAt = now
            try connection.execute("UPDATE memos SET text = ?, title = ?, updated_at = ? WHERE id = ?",
                                   memo.text, memo.title, now.secondsSince1970, id)
            let newTags = tags.applied(to: memo.tags)
            if newTags != memo.tags {
                memo.tags = newTags
                try replaceTags(of: id, with: newTags)
            }
            memo.rev = try connection.revision(of: "memos", id: id)
            return memo
        }
    }

    /// Pins or unpins the memo and returns it.
    public func setPinned(_ isPinned: Bool, id: Int64) throws -> Memo {
        let now = clock.now()
        return try connection.writeTransaction {
            var memo = try memo(id: id)
            if memo.isPinned != isPinned {
                memo.isPinned = isPinned
                memo.updatedAt = now
                try connection.execute("UPDATE memos SET is_pinned = ?, updated_at = ? WHERE id = ?",
                                       isPinned, now.secondsSince1970, id)
            }
            memo.rev = try connection.revision(of: "memos", id: id)
            return memo
        }
    }

    /// Removes the memos and returns them as they were. One unknown id: nothing is removed.
    @discardableResult
    public func remove(ids: [Int64]) throws -> [Memo] {
        try connection.writeTransaction {
            let ids = try connection.existingIDs(ids, of: .memo)
            let removed = try ids.map(memo(id:))
            for id in ids {
                try connection.execute("DELETE FROM memos WHERE id = ?", id)
            }
            return removed
        }
    }

    /// How many memos there are.
    public func count() throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM memos") { $0.int(0) } ?? 0
    }

    // MARK: - Private

    /// The `tags` column and the `memo_tags` rows the tag filter reads, both
    /// (the undo log follows both tables, so an undo puts both back).
    private func replaceTags(of id: Int64, with tags: [String]) throws {
        try connection.execute("UPDATE memos SET tags = ? WHERE id = ?", TagColumn.joined(tags), id)
        try connection.execute("DELETE FROM memo_tags WHERE memo_id = ?", id)
        for tag in tags {
            try connection.execute("INSERT INTO memo_tags (memo_id, tag) VALUES (?, ?)", id, tag)
        }
    }

    public static func validate(text: String, isNew: Bool) throws {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0 != "\0" }) else {
            throw isNew
                ? MemoError(.badInput, en: "the memo is empty; nothing was added",
                            ko: "메모가 비어 있어 아무것도 추가하지 않았습니다")
                : MemoError(.badInput, en: "the new text is empty; the memo was left as it was",
                            ko: "새 내용이 비어 있어 메모를 바꾸지 않았습니다")
        }
    }

    /// A title is one line: lists show a memo a line, its title first.
    public static func validate(title: String?) throws {
        guard let title, title.hasLineBreak else { return }
        throw MemoError(.usage, en: "a memo's title must be one line", ko: "메모 제목은 한 줄이어야 합니다")
    }

    /// A title that is empty or only white space is no title.
    static func storedTitle(_ title: String?) -> String? {
        guard let title, title.contains(where: { !$0.isWhitespace }) else { return nil }
        return title
    }
}

/// Where a page of memos ended: the values the list sorts by.
public struct MemoPosition: Sendable, Equatable {
    public var isPinned: Bool
    /// Seconds since 1970, as stored.
    public var createdAt: Double
    public var id: Int64

    public init(isPinned: Bool, createdAt: Double, id: Int64) {
        self.isPinned = isPinned
        self.createdAt = createdAt
        self.id = id
    }

    public init(_ summary: MemoSummary) {
        self.init(isPinned: summary.isPinned, createdAt: summary.createdAt.secondsSince1970, id: summary.id)
    }
}
