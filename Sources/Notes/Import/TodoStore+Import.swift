import MemoCore
import SQLite

extension TodoStore {
    /// Stores to-dos read from another tool, in one transaction: all or none.
    /// One whose uid is already stored (or came earlier in `todos`) is counted
    /// as already present and not added again, so importing a file twice adds
    /// nothing the second time. With `dryRun`, only counts: nothing is written.
    ///
    /// Missing times are filled in: created is the import's time (or the done
    /// time, when that is earlier); done without a time is done as of the last
    /// change; updated is the latest of the others.
    public func importTodos(_ todos: [ImportedTodo], dryRun: Bool = false) throws -> ImportOutcome {
        for todo in todos { try TodoStore.check(todo) }
        return try importTodos(dryRun: dryRun) { add in try todos.forEach(add) }
    }

    /// The same for to-dos too many to hold: `produce` hands each to the
    /// function it is given, inside the one transaction, and must produce only
    /// to-dos that passed `check`.
    public func importTodos(dryRun: Bool = false,
                            _ produce: (_ add: (ImportedTodo) throws -> Void) throws -> Void) throws -> ImportOutcome {
        let now = clock.now()
        let body = { [self] () throws -> ImportOutcome in
            var outcome = ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 0)
            // A dry run writes nothing, so it looks each uid up and remembers
            // those it counted; an import finds them as it inserts, rows
            // written earlier in this transaction included.
            var counted = Set<UIDKey>()
            try produce { todo in
                if dryRun {
                    guard try !hasTodo(uid: todo.uid), counted.insert(UIDKey(todo.uid)).inserted else {
                        outcome.alreadyPresent += 1
                        return
                    }
                    outcome.addedCount += 1
                } else if let id = try insert(todo, now: now) {
                    outcome.addedCount += 1
                    outcome.addedIDs.append(id)
                } else {
                    outcome.alreadyPresent += 1
                }
            }
            return outcome
        }
        return try dryRun ? connection.readTransaction(body) : connection.writeTransaction(body)
    }

    /// Throws the error storing `todo` would meet: a title memoapp does not
    /// take, a uid that is not a UUID, a repeat the table's CHECKs refuse
    /// (which a bulk write does not ask SQLite to check again, see
    /// `NotesArchive.bulkWrite`).
    public static func check(_ todo: ImportedTodo) throws {
        try validate(title: todo.title)
        _ = try UUID4.uid(todo.uid)
        if let rule = todo.repeatRule, !rule.isValid { throw NotesArchive.invalidRule(rule) }
    }

    // MARK: - Private

    private func hasTodo(uid: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM todos WHERE uid = ?", uid) { _ in true } ?? false
    }

    /// The whole row, written by the same insert as an export's to-dos; nil
    /// when a to-do with its uid is stored.
    private func insert(_ todo: ImportedTodo, now: Timestamp) throws -> Int64? {
        let created = todo.createdAt ?? min(now, todo.doneAt ?? now)
        let done = todo.isDone ? todo.doneAt ?? todo.updatedAt ?? created : nil
        let stored = Todo(id: 0, uid: todo.uid, title: todo.title, note: TodoStore.storedNote(todo.note),
                          priority: todo.priority, tags: try Tags.normalized(todo.tags), due: todo.due,
                          createdAt: created, updatedAt: todo.updatedAt ?? max(created, done ?? created),
                          doneAt: done,
                          repeatRule: todo.due.flatMap { todo.repeatRule?.anchored(at: $0.date(in: calendar)) })
        return try NotesArchive.insertUnlessPresent(stored, keepingID: false, into: connection)
    }
}
