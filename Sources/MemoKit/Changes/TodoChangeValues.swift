import MemoCore
import Notes

// The changes a person makes to to-dos (see `ItemChange`).

/// Adds a to-do.
public struct AddTodo: ItemChange {
    public var new: NewTodo
    public init(_ new: NewTodo) { self.new = new }
    public var summary: String { "todo add " + quotedTitle(new.title) }
    public func write(in workspace: Workspace) throws -> Todo { try workspace.todoStore().add(new) }
}

/// Edits one to-do's fields and tags. Tags change as tags: added and taken
/// away, or a whole new list (an API's PATCH), turned into the tags to take
/// away and to add against the list read in the same transaction.
public struct EditTodo: ItemChange {
    public var id: Int64
    public var fields: TodoChanges
    public var tags: TagChanges
    public init(id: Int64, _ fields: TodoChanges, tags: TagChanges = TagChanges()) {
        self.id = id
        self.fields = fields
        self.tags = tags
    }
    public var summary: String { "todo edit \(id)" }
    public func write(in workspace: Workspace) throws -> Todo {
        let store = try workspace.todoStore()
        var changes = fields
        if let replacement = tags.replacement {
            changes.removedTags = try store.todo(id: id).tags + tags.removed
            changes.addedTags = replacement + tags.added
        } else {
            changes.addedTags += tags.added
            changes.removedTags += tags.removed
        }
        return try store.edit(id: id, changes)
    }
}

/// Marks to-dos done; each recurring one that was open comes back as its
/// next occurrence, in the same step.
public struct FinishTodos: ItemChange {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "todo done " + idWords(ids) }
    public func write(in workspace: Workspace) throws -> (done: [Todo], next: [Todo]) {
        try workspace.todoStore().finish(ids: ids)
    }
}

/// Opens done to-dos again.
public struct ReopenTodos: ItemChange {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "todo undo " + idWords(ids) }
    public func write(in workspace: Workspace) throws -> [Todo] { try workspace.todoStore().reopen(ids: ids) }
}

/// Removes to-dos (their timers stay, with no to-do).
public struct RemoveTodos: ItemChange {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "todo rm " + idWords(ids) }
    public func write(in workspace: Workspace) throws -> [Todo] { try workspace.todoStore().remove(ids: ids) }
}

/// Removes every done to-do.
public struct ClearDoneTodos: ItemChange {
    public init() {}
    public var summary: String { "todo clear" }
    public func write(in workspace: Workspace) throws -> [Todo] { try workspace.todoStore().clearDone() }
}

/// Adds tags to several to-dos in one step, so one undo takes them all
/// back (the page's "Add tag" on a selection). A to-do that has a tag
/// already keeps it once; one unknown id changes nothing.
public struct TagTodos: ItemChange {
    public var ids: [Int64]
    public var added: [String]
    public init(ids: [Int64], adding added: [String]) {
        self.ids = ids
        self.added = added
    }
    public var summary: String { "todo tag " + idWords(ids) + " +" + added.joined(separator: " +") }
    public func write(in workspace: Workspace) throws -> [Todo] {
        try workspace.todoStore().addTags(added, to: ids)
    }
}
