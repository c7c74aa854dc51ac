import MemoCore
import Notes

// The changes a person makes to text memos (see `ItemChange`).

/// Adds a memo.
public struct AddMemo: ItemChange {
    public var new: NewMemo
    public init(_ new: NewMemo) { self.new = new }
    public var summary: String { "memo add " + quotedTitle(new.title ?? new.text) }
    public func write(in workspace: Workspace) throws -> Memo { try workspace.memoStore().add(new) }
}

/// Replaces a memo's text or title (an empty title removes it) and changes
/// its tags. With `madeFrom`, the memo as the new text was made from (in an
/// editor): refused when its text or title changed since.
public struct EditMemo: ItemChange {
    public var id: Int64
    public var text: String?
    public var title: String?
    public var tags: TagChanges
    public var madeFrom: Memo?
    public init(id: Int64, text: String? = nil, title: String? = nil, tags: TagChanges = TagChanges(),
                madeFrom: Memo? = nil) {
        self.id = id
        self.text = text
        self.title = title
        self.tags = tags
        self.madeFrom = madeFrom
    }
    public var summary: String { "memo edit \(id)" }
    public func write(in workspace: Workspace) throws -> Memo {
        try workspace.memoStore().edit(id: id, text: text, title: title, tags: tags, madeFrom: madeFrom)
    }
}

/// Pins a memo (it comes first in lists) or unpins it.
public struct PinMemo: ItemChange {
    public var id: Int64
    public var isPinned: Bool
    public init(id: Int64, isPinned: Bool) {
        self.id = id
        self.isPinned = isPinned
    }
    public var summary: String { (isPinned ? "memo pin " : "memo unpin ") + "\(id)" }
    public func write(in workspace: Workspace) throws -> Memo { try workspace.memoStore().setPinned(isPinned, id: id) }
}

/// Removes memos.
public struct RemoveMemos: ItemChange {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "memo rm " + idWords(ids) }
    public func write(in workspace: Workspace) throws -> [Memo] { try workspace.memoStore().remove(ids: ids) }
}
