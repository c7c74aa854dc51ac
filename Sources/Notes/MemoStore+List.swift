import MemoCore
import SQLite

/// Which memos a list shows, and in what order.
public struct MemoQuery: Sendable {
    /// An order other than the default (pinned first, newest first).
    public enum Sort: String, Sendable, CaseIterable {
        /// Newest first.
        case created
        /// Last changed first.
        case updated
        /// By title, A to Z without regard to ASCII case; untitled memos
        /// (an empty title) first.
        case title
    }

    /// Only memos with every required tag and no excluded one.
    public var tags: TagFilter
    /// Only pinned memos.
    public var pinnedOnly: Bool
    /// Only memos created at or after this moment.
    public var since: Timestamp?
    /// Only memos created at or before this moment.
    public var until: Timestamp?
    /// nil: pinned first, then newest first (the order `after` pages through).
    public var sort: Sort?
    /// The order turned around.
    public var isReversed: Bool
    /// At most this many.
    public var limit: Int?
    /// Only the memos after this one in the default order (keyset paging).
    public var after: MemoPosition?

    /// A query; by default every memo, pinned first, then newest first.
    public init(tags: TagFilter = TagFilter(), pinnedOnly: Bool = false, since: Timestamp? = nil, until: Timestamp? = nil,
                sort: Sort? = nil, isReversed: Bool = false, limit: Int? = nil, after: MemoPosition? = nil) {
        self.tags = tags
        self.pinnedOnly = pinnedOnly
        self.since = since
        self.until = until
        self.sort = sort
        self.isReversed = isReversed
        self.limit = limit
        self.after = after
    }
}

extension MemoStore {
    /// Memos pinned first, then newest first; only those with `tag`, or only
    /// pinned ones, when asked.
    public func summaries(tag: String? = nil, pinnedOnly: Bool = false, limit: Int? = nil,
                          after: MemoPosition? = nil) throws -> [MemoSummary] {
        let tags = TagFilter(required: try tag.map { [try Tags.normalized($0)] } ?? [])
        return try summaries(matching: MemoQuery(tags: tags, pinnedOnly: pinnedOnly, limit: limit, after: after))
    }

    /// The memos `query` selects, in its order.
    public func summaries(matching query: MemoQuery) throws -> [MemoSummary] {
        var summaries: [MemoSummary] = []
        try forEachSummary(matching: query) { summaries.append($0) }
        return summaries
    }

    /// Hands each memo `query` selects to `body` in order, as it is read (the
    /// default order from the index `memos_by_pin_and_age`), so a list of any
    /// length is printed without being held. `after` starts the list right
    /// after that memo (keyset paging: the next page, stable while memos are
    /// added); it follows the default order only, and is refused with another.
    public func forEachSummary(matching query: MemoQuery, _ body: (MemoSummary) throws -> Void) throws {
        var (selection, arguments) = MemoStore.selection(query)
        if let after = query.after {
            guard query.sort == nil, !query.isReversed else {
                throw MemoError(.usage, en: "a page of memos follows the default order only",
                                ko: "메모 목록의 다음 쪽은 기본 순서에서만 이어집니다")
            }
            // Every term of the order is descending, so "after" is "less than".
            selection += (selection.isEmpty ? " WHERE " : " AND ") + "(is_pinned, created_at, id) < (?, ?, ?)"
            arguments += [.integer(after.isPinned ? 1 : 0), .real(after.createdAt), .integer(after.id)]
        }
        // The preview needs the first line only; substr keeps a 1 MB memo from
        // being read whole for it (a first line longer than this is cut anyway).
        var sql = "SELECT id, title, substr(text, 1, 400), tags, is_pinned, created_at, updated_at, uid, rev, conflict_of FROM memos"
            + selection + " ORDER BY " + MemoStore.order(query)
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(max(0, limit))))
        }
        try connection.forEachRow(sql, arguments: arguments) { row in
            var summary = MemoSummary(id: row.int64(0), uid: row.string(7), title: row.optionalString(1),
                                      preview: MemoSummary.preview(of: row.string(2)), tags: TagColumn.split(row.string(3)),
                                      isPinned: row.bool(4),
                                      createdAt: Timestamp(secondsSince1970: row.double(5)),
                                      updatedAt: Timestamp(secondsSince1970: row.double(6)))
            summary.rev = row.int64(8)
            summary.conflictOf = row.optionalString(9)
            try body(summary)
            return true
        }
    }

    /// The largest id among the memos `query` selects (its limit aside), or
    /// nil when it selects none: a list's ids are padded to that width up front.
    public func largestID(matching query: MemoQuery) throws -> Int64? {
        let (selection, arguments) = MemoStore.selection(query)
        return try connection.queryFirst("SELECT max(id) FROM memos" + selection, arguments: arguments) {
            $0.isNull(0) ? nil : $0.int64(0)
        } ?? nil
    }

    // MARK: - Private

    /// The WHERE clause of a list (empty for every memo) and its arguments.
    private static func selection(_ query: MemoQuery) -> (String, [SQLiteValue]) {
        var (conditions, arguments) = query.tags.conditions(table: "memo_tags", key: "memo_id")
        if query.pinnedOnly { conditions.append("is_pinned = 1") }
        if let since = query.since {
            conditions.append("created_at >= ?")
            arguments.append(.real(since.secondsSince1970))
        }
        if let until = query.until {
            conditions.append("created_at <= ?")
            arguments.append(.real(until.secondsSince1970))
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// The ORDER BY terms: each order with the id as its last tie-break.
    private static func order(_ query: MemoQuery) -> String {
        let (forward, backward) = query.isReversed ? ("ASC", "DESC") : ("DESC", "ASC")
        switch query.sort {
        case nil: return "is_pinned \(forward), created_at \(forward), id \(forward)"
        case .created?: return "created_at \(forward), id \(forward)"
        case .updated?: return "updated_at \(forward), id \(forward)"
        case .title?: return "coalesce(title, '') COLLATE NOCASE \(backward), id \(backward)"
        }
    }
}
