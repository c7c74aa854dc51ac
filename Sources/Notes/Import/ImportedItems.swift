import MemoCore

/// A to-do read from another tool's file, with the times and identity it had
/// there; `TodoStore.importTodos` stores it. Readers make these without a
/// database or a clock: a missing time is filled in by the store.
public struct ImportedTodo: Hashable, Sendable {
    /// Its identity: another tool's own (Taskwarrior's uuid) or one derived from
    /// its content (`DerivedUID`). A uid already stored means "already present".
    public var uid: String
    /// What to do; never blank.
    public var title: String
    /// nil for none.
    public var note: String?
    /// nil for none.
    public var priority: Priority?
    /// Already valid memoapp tags (`Tags.normalized`).
    public var tags: [String]
    /// nil for none.
    public var due: Due?
    /// When it was made there; nil: the time of the import.
    public var createdAt: Timestamp?
    /// Its last change there; nil: the latest of its other times.
    public var updatedAt: Timestamp?
    /// Whether it was finished there.
    public var isDone: Bool
    /// When it was finished, if the source says; a done to-do without one is
    /// done as of its last change.
    public var doneAt: Timestamp?
    /// How it repeats there (anchored at its due date's day when stored);
    /// kept only with a due date.
    public var repeatRule: RepeatRule?

    /// An imported to-do; everything but the uid and title is optional.
    public init(uid: String, title: String, note: String? = nil, priority: Priority? = nil, tags: [String] = [],
                due: Due? = nil, createdAt: Timestamp? = nil, updatedAt: Timestamp? = nil, isDone: Bool = false,
                doneAt: Timestamp? = nil) {
        self.uid = uid
        self.title = title
        self.note = note
        self.priority = priority
        self.tags = tags
        self.due = due
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDone = isDone
        self.doneAt = doneAt
    }
}

/// A memo read from a file; `MemoStore.importMemos` stores it.
public struct ImportedMemo: Hashable, Sendable {
    /// Derived from the file's content, so the same file is never added twice.
    public var uid: String
    /// From the file's first heading; nil when it has none.
    public var title: String?
    /// The file's text as written (a leading byte-order mark dropped).
    public var text: String
    /// Already valid memoapp tags.
    public var tags: [String]
    /// The file's modification time; nil: the time of the import.
    public var createdAt: Timestamp?
    /// Its last change, from an exported file's front matter; nil: `createdAt`.
    public var updatedAt: Timestamp?
    /// Pinned, from an exported file's front matter.
    public var isPinned: Bool

    /// An imported memo.
    public init(uid: String, title: String?, text: String, tags: [String] = [], createdAt: Timestamp? = nil,
                updatedAt: Timestamp? = nil, isPinned: Bool = false) {
        self.uid = uid
        self.title = title
        self.text = text
        self.tags = tags
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isPinned = isPinned
    }
}

/// What an import did: the ids it added, in the order read, and how many items
/// were there already (the same uid).
public struct ImportOutcome: Equatable, Sendable {
    /// The new items' ids; empty for a dry run.
    public var addedIDs: [Int64]
    /// How many items would be or were added (a dry run has no ids to count).
    public var addedCount: Int
    /// Items whose uid was already stored, or came earlier in the same import.
    public var alreadyPresent: Int

    /// An outcome from its counts.
    public init(addedIDs: [Int64], addedCount: Int, alreadyPresent: Int) {
        self.addedIDs = addedIDs
        self.addedCount = addedCount
        self.alreadyPresent = alreadyPresent
    }
}
