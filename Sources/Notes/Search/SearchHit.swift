import MemoCore

/// The searchable parts of an item.
public enum SearchField: String, Sendable {
    case title
    /// A memo's text.
    case text
    /// A to-do's note.
    case note
    case tags
}

/// Where the query was first found in a hit: the field and, counted in Unicode
/// scalars from the start of that field, the first match's offset and length.
public struct SearchMatch: Hashable, Sendable {
    /// The field the first match is in (title first, then text or note, then tags).
    public var field: SearchField
    /// Code points from the start of the field to the match.
    public var start: Int
    /// The match's length in code points.
    public var length: Int
}

/// One item a search found.
public struct SearchHit: Sendable {
    /// To-do or memo.
    public var kind: ItemKind
    /// The item's id in its own table.
    public var id: Int64
    /// The item's stable identity (nil only for a row inserted by hand that
    /// no export has given one yet).
    public var uid: String?
    /// The to-do's title, or the memo's title (nil when it has none).
    public var title: String?
    /// A to-do that is done; always false for memos.
    public var isDone: Bool
    /// A pinned memo; always false for to-dos.
    public var isPinned: Bool
    /// When the item was added; within a tier, newer comes first.
    public var createdAt: Timestamp
    /// The item's last change.
    public var updatedAt: Timestamp
    /// The tier, lower is better: 0 when every word is in the title, 1 when
    /// every word is in the title or the tags, 2 for the rest (with `.any`:
    /// some word in the title, some in the tags, the rest).
    public var score: Double
    /// nil only if the matched text could not be found again for marking.
    public var match: SearchMatch?
    /// A one-line excerpt of the matched field around the first match, every
    /// occurrence in it marked; `…` where it was cut.
    public var snippet: MarkedText
}

/// A page of hits, best first.
public struct SearchResults: Sendable {
    /// The query as run.
    public var query: SearchQuery
    /// Best first, at most the limit.
    public var hits: [SearchHit]
    /// More items matched beyond the limit.
    public var hasMore: Bool
}
