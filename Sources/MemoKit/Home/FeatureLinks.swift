import MemoCore
import SQLite

/// What ties one feature module's table to another's, which neither module
/// may know: a timer's to-do (`timers.todo_id`, `timer start --todo`).
enum FeatureLinks {
    /// Registered after both modules' migrations.
    static let migrations: [Migration] = [
        // A removed to-do leaves its timers, with no to-do. A trigger rather
        // than a foreign key: the timers table is made without one, and a
        // trigger's UPDATE is logged by the undo triggers, so undoing the
        // removal ties the timers to the to-do again.
        Migration("links.1-removed-todo-leaves-its-timers", sql: """
            CREATE TRIGGER todos_removed_unlink_timers AFTER DELETE ON todos BEGIN
                UPDATE timers SET todo_id = NULL WHERE todo_id = old.id;
            END;
            """),
    ]

    /// A timer's export object with `todo_uid` added: the uid of its to-do
    /// (`todo_id`), which an import into another data home ties it to again.
    static func withTodoUID(_ timer: JSON, in connection: Connection) throws -> JSON {
        guard case var .object(members) = timer else { return timer }
        var uid: JSON = .null
        if let member = members.first(where: { $0.0 == "todo_id" }), case let .int(todoID) = member.1 {
            uid = try connection.queryFirst("SELECT uid FROM todos WHERE id = ?", todoID) { JSON.string($0.string(0)) } ?? .null
        }
        members.append(("todo_uid", uid))
        return .object(members)
    }

    /// Ties the timer `id` to the to-do with `todoUID`, if one is stored
    /// (an import that skipped the to-do leaves the timer without one).
    static func tieTimer(_ id: Int64, toTodoWithUID todoUID: String, in connection: Connection) throws {
        try connection.execute("UPDATE timers SET todo_id = (SELECT id FROM todos WHERE uid = ?) WHERE id = ?", todoUID, id)
    }
}
