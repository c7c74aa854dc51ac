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
        for todo in todos {
            try TodoStore.validate(title: todo.title)
            _ = try UUID4.uid(todo.uid)
        }
        let now = clock.now()
        let body = { [self] () throws -> ImportOutcome in
            var outcome = ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 0)
            var seen = Set<String>()
            for todo in todos {
                guard seen.insert(todo.uid).inserted, try !hasTodo(uid: todo.uid) else {
                    outcome.alreadyPresent += 1
                    continue
                }
                outcome.addedCount += 1
                if !dryRun { outcome.addedIDs.append(try insert(todo, now: now)) }
            }
            return outcome
        }
        return try dryRun ? connection.readTransaction(body) : connection.writeTransaction(body)
    }

    // MARK: - Private

    private func hasTodo(uid: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM todos WHERE uid = ?", uid) { _ in true } ?? false
    }

    private func insert(_ todo: ImportedTodo, now: Timestamp) throws -> Int64 {
        let tags = try Tags.normalized(todo.tags)
        let created = todo.createdAt ?? min(now, todo.doneAt ?? now)
        let done = todo.isDone ? todo.doneAt ?? todo.updatedAt ?? created : nil
        let updated = todo.updatedAt ?? max(created, done ?? created)
        try connection.execute("""
            INSERT INTO todos (uid, title, note, priority, due_at, due_has_time, tags, created_at, updated_at, done_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, todo.uid, todo.title, TodoStore.storedNote(todo.note), todo.priority?.rawValue,
            todo.due?.instant.secondsSince1970, todo.due?.hasTime ?? false, Tags.joined(tags),
            created.secondsSince1970, updated.secondsSince1970, done?.secondsSince1970)
        let id = connection.lastInsertRowID
        for tag in tags {
            try connection.execute("INSERT INTO todo_tags (todo_id, tag) VALUES (?, ?)", id, tag)
        }
        return id
    }
}
