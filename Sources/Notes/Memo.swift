import MemoCore

/// One text memo as stored. Its text is kept exactly as given, byte for byte.
public struct Memo: Hashable, Sendable {
    /// Never changes and is never given to another memo.
    public let id: Int64
    /// The memo's identity in every data home (a UUID, lowercase); kept by
    /// export and import. Empty for a memo that was never stored.
    public let uid: String
    /// nil when the memo has none; lists then show the text's first line.
    public var title: String?
    /// Exactly as given: Korean, emoji, line breaks, NUL characters and all.
    public var text: String
    /// In the order given, de-duplicated.
    public var tags: [String]
    /// Pinned memos come first in lists.
    public var isPinned: Bool
    /// When it was added.
    public var createdAt: Timestamp
    /// The last change of text, title, tags or pin.
    public var updatedAt: Timestamp
    /// Its revision in this data home: the number of its latest change,
    /// from one counter of the home, so a higher rev is a later change.
    /// 0 for one never stored. The API's ETag.
    public var rev: Int64 = 0
    /// For a conflict copy sync made (two devices changed the same lines),
    /// the uid of the memo it is a copy of; nil for any other memo.
    public var conflictOf: String?

    /// A memo as stored; stores make these, tests and front ends may too.
    public init(id: Int64, uid: String = "", title: String? = nil, text: String, tags: [String] = [],
                isPinned: Bool = false, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.uid = uid
        self.title = title
        self.text = text
        self.tags = tags
        self.isPinned = isPinned
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A memo as lists show it: everything but the whole text, which can be long.
public struct MemoSummary: Hashable, Sendable {
    /// The memo's id.
    public let id: Int64
    /// The memo's uid.
    public let uid: String
    /// The memo's title, if it has one.
    public var title: String?
    /// The text's first non-blank line, cut to `MemoSummary.previewLength`
    /// characters with `…` when longer.
    public var preview: String
    /// The memo's tags.
    public var tags: [String]
    /// Whether it is pinned.
    public var isPinned: Bool
    /// When it was added.
    public var createdAt: Timestamp
    /// The last change.
    public var updatedAt: Timestamp
    /// The memo's revision (`Memo.rev`).
    public var rev: Int64 = 0
    /// The memo it is a conflict copy of (`Memo.conflictOf`).
    public var conflictOf: String?

    /// A summary from its parts.
    public init(id: Int64, uid: String = "", title: String?, preview: String, tags: [String], isPinned: Bool,
                createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.uid = uid
        self.title = title
        self.preview = preview
        self.tags = tags
        self.isPinned = isPinned
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The summary of a whole memo.
    public init(_ memo: Memo) {
        self.init(id: memo.id, uid: memo.uid, title: memo.title, preview: MemoSummary.preview(of: memo.text), tags: memo.tags,
                  isPinned: memo.isPinned, createdAt: memo.createdAt, updatedAt: memo.updatedAt)
        rev = memo.rev
        conflictOf = memo.conflictOf
    }

    /// Characters of text a preview keeps.
    public static let previewLength = 60

    /// The one-line preview of `text`.
    public static func preview(of text: some StringProtocol) -> String {
        let line = text.split(whereSeparator: \.isNewline)
            .first { $0.contains { !$0.isWhitespace } } ?? ""
        let cleaned = String(line.map { $0 == "\t" || $0 == "\0" ? " " : $0 })
        guard cleaned.count > previewLength else { return cleaned }
        return String(cleaned.prefix(previewLength)) + "…"
    }
}

/// What `MemoStore.add` needs.
public struct NewMemo: Sendable {
    /// Kept exactly as given; must hold something besides white space.
    public var text: String
    /// Optional; blank means none.
    public var title: String?
    /// Cleaned by `Tags.normalized`.
    public var tags: [String]
    /// Pin it on arrival.
    public var isPinned: Bool

    /// A memo to add.
    public init(text: String, title: String? = nil, tags: [String] = [], isPinned: Bool = false) {
        self.text = text
        self.title = title
        self.tags = tags
        self.isPinned = isPinned
    }
}
