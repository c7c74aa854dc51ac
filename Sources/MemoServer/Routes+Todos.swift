import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `/api/v1/todos`: the command line's `todo` commands as routes.
extension MemoRoutes {
    static let todoWord = Localized(en: "to-do", ko: "할 일")

    static func addTodos(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/todos", Describe.list("To-dos, filtered and sorted", "Todo",
                                                          query: todoListQuery)) { request in
            let query = try todoQuery(request, now: services.clock.now())
            let todos = try services.read { try $0.todoStore().todos(matching: query) }
            let body = encoder(services).serialized(todos)
            return Paging.linking(.bytes(body, contentType: "application/json"), request, itemCount: todos.count,
                                  limit: query.limit ?? 0) { todos.last.map { Paging.todoCursor($0, sort: query.sort) } }
        }
        router.json(.post, "/api/v1/todos", Describe.create("Add a to-do (repeat: a rule for a recurring one)",
                                                            "TodoDetail", body: newTodoSchema)) { request, body in
            try services.idempotency.perform(request, body: body) {
                let document = try JSONBody.object(body, allowedKeys: Set(newTodoSchema.propertyNames))
                let now = services.clock.now()
                let new = NewTodo(title: try document.string("title"), note: try document.optionalString("note"),
                                  priority: try document.optionalString("priority").map { try Priority(parsing: $0) },
                                  tags: try Tags.normalized(document.strings("tags")),
                                  due: try document.optionalString("due").map {
                                      try DueDateParser(now: now, calendar: SystemLocalCalendar()).parse($0)
                                  },
                                  repeatRule: try repeatRule(document),
                                  remindAt: try document.optionalString("remind").map {
                                      try DueDateParser(now: now, calendar: SystemLocalCalendar()).reminder($0)
                                  })
                let (todo, answer) = try services.apply(AddTodo(new), for: request) { todo, workspace in
                    (todo, try todoDocument(todo, workspace, services))
                }
                var response = Items.response(serialized: answer, rev: todo.rev, for: request, status: 201)
                response.headers.set("Location", "/api/v1/todos/\(todo.id)")
                return response
            }
        }
        router.route(.get, "/api/v1/todos/{id}", Describe.item("One to-do", "TodoDetail")) { request in
            let id = try request.itemID(.todo, services)
            let (todo, document) = try services.read { workspace -> (Todo, [UInt8]) in
                let todo = try workspace.todoStore().todo(id: id)
                return (todo, try todoDocument(todo, workspace, services))
            }
            return Items.response(serialized: document, rev: todo.rev, for: request)
        }
        router.json(.patch, "/api/v1/todos/{id}", Describe.change("Change a to-do", "TodoDetail", body: todoChangesSchema,
                                                                  isPost: false)) { request, body in
            let id = try request.itemID(.todo, services)
            let (edits, newTags) = try todoChanges(body, now: services.clock.now())
            // A whole new list of tags is taken as such by the change: every
            // tag there now goes, the new ones come in their order.
            let change = EditTodo(id: id, edits, tags: TagChanges(replacement: newTags))
            let (todo, document) = try services.apply(change, for: request, before: { workspace in
                try checkTodoPrecondition(request, id: id, workspace, services)
            }, answer: { todo, workspace in (todo, try todoDocument(todo, workspace, services)) })
            return Items.response(serialized: document, rev: todo.rev, for: request)
        }
        router.route(.delete, "/api/v1/todos/{id}",
                     Describe.change("Remove a to-do", "TodoDetail", answer: DocumentSchema.removed("Todo"),
                                     isPost: false)) { request in
            let id = try request.itemID(.todo, services)
            let removed = try services.apply(RemoveTodos(ids: [id]), for: request) { workspace in
                try checkTodoPrecondition(request, id: id, workspace, services)
            }
            return .json(WireFormat.removed(removed.map(encoder(services).json)))
        }
        router.action("/api/v1/todos/{id}/done", services,
                      Describe.change("Finish a to-do (a recurring one also gets its next occurrence)", "TodoDetail")) { request in
            let id = try request.itemID(.todo, services)
            let (todo, document) = try services.apply(FinishTodos(ids: [id]), for: request, before: { workspace in
                try checkTodoPrecondition(request, id: id, workspace, services)
            }, answer: { finished, workspace in (finished.done[0], try todoDocument(finished.done[0], workspace, services)) })
            return Items.response(serialized: document, rev: todo.rev, for: request)
        }
        router.action("/api/v1/todos/{id}/undo", services, Describe.change("Reopen a to-do", "TodoDetail")) { request in
            let id = try request.itemID(.todo, services)
            let (todo, document) = try services.apply(ReopenTodos(ids: [id]), for: request, before: { workspace in
                try checkTodoPrecondition(request, id: id, workspace, services)
            }, answer: { reopened, workspace in (reopened[0], try todoDocument(reopened[0], workspace, services)) })
            return Items.response(serialized: document, rev: todo.rev, for: request)
        }
    }

    /// Refuses a change whose `If-Match` names another revision of to-do
    /// `id` than the stored one (412 with the current to-do).
    static func checkTodoPrecondition(_ request: Request, id: Int64, _ workspace: Workspace,
                                      _ services: ServerServices) throws {
        guard request.headers["If-Match"] != nil else { return }
        let current = try workspace.todoStore().todo(id: id)
        try Items.checkPrecondition(request, rev: current.rev, currentSerialized: todoDocument(current, workspace, services))
    }

    /// One to-do as every single-item answer gives it and a stale `If-Match`
    /// is answered with: in full, with `time_spent_seconds` (lists leave it
    /// out), serialized (`WireFormat.TodoEncoder.detail`'s bytes).
    static func todoDocument(_ todo: Todo, _ workspace: Workspace, _ services: ServerServices) throws -> [UInt8] {
        encoder(services).serializedDetail(todo, timeSpent: try TimeTracking.timeSpent(onTodo: todo.id, in: workspace).spent.seconds)
    }

    /// To-dos as JSON for this moment in the server's time zone (`TZ`).
    static func encoder(_ services: ServerServices) -> WireFormat.TodoEncoder {
        WireFormat.TodoEncoder(now: services.clock.now(), calendar: SystemLocalCalendar())
    }

    /// The list's filters: the command line's `todo list` options as query items.
    static func todoQuery(_ request: Request, now: Timestamp) throws -> TodoQuery {
        var query = TodoQuery()
        switch request.queryValue("status") {
        case nil, "open"?: query.status = .open
        case "done"?: query.status = .done
        case "all"?: query.status = .all
        default:
            throw MemoError(.usage, en: "'status' must be one of open, done, all", ko: "'status' 값은 open, done, all 중 하나여야 합니다")
        }
        query.tags = try TagFilter(parsing: request.queryValues("tag"))
        query.due = try request.queryChoice("due", TodoQuery.DueWindow.self)
        let dates = DueDateParser(now: now, calendar: SystemLocalCalendar())
        query.dueBefore = try request.queryValue("due_before").map(dates.start(of:))
        query.dueAfter = try request.queryValue("due_after").map(dates.end(of:))
        query.priority = try request.queryValue("priority").map { try Priority(parsing: $0) }
        query.sort = try request.queryChoice("sort", TodoQuery.Sort.self) ?? .due
        query.limit = try listLimit(request)
        query.after = try Paging.todoPosition(request, sort: query.sort)
        return query
    }

    /// `limit`: 50 unless given, at most 500.
    static func listLimit(_ request: Request) throws -> Int {
        try request.queryInt("limit", in: 1...500) ?? 50
    }

    /// A POST body's `repeat` (`"weekly"`, `"every 2 weeks"`) with its
    /// `repeat_from` (`"due"`, the default, or `"done"`), or nil.
    static func repeatRule(_ document: JSONReader) throws -> RepeatRule? {
        let from = try repeatAnchor(document)
        guard var rule = try document.optionalString("repeat").map(RepeatRule.init(parsing:)) else {
            guard from == nil else {
                throw MemoError(.usage, en: "'repeat_from' needs 'repeat'", ko: "'repeat_from'에는 'repeat'이 필요합니다")
            }
            return nil
        }
        rule.from = from ?? .due
        return rule
    }

    /// `repeat_from`: `due`, `done` or absent.
    static func repeatAnchor(_ document: JSONReader) throws -> RepeatRule.Anchor? {
        guard let text = try document.optionalString("repeat_from") else { return nil }
        guard let anchor = RepeatRule.Anchor(rawValue: text) else {
            throw MemoError(.usage, en: "'repeat_from' must be due or done", ko: "'repeat_from' 값은 due 또는 done이어야 합니다")
        }
        return anchor
    }

    /// A PATCH body as the changes of `todo edit` (null removes a field) and
    /// the whole new list of tags when `tags` gives one.
    static func todoChanges(_ body: [UInt8], now: Timestamp) throws -> (TodoChanges, newTags: [String]?) {
        let document = try JSONBody.object(body, allowedKeys: Set(todoChangesSchema.propertyNames))
        let tags = try document.tagChanges(clean: Tags.normalized(_:))
        var changes = TodoChanges(title: try document.optionalString("title"), addedTags: tags.added, removedTags: tags.removed)
        if let note = try document.change("note") {
            let text = try note?.string() ?? ""
            changes.note = text.isEmpty ? .remove : .set(text)
        }
        if let priority = try document.change("priority") {
            changes.priority = try priority.map { .set(try Priority(parsing: $0.string())) } ?? .remove
        }
        if let due = try document.change("due") {
            changes.due = try due.map { .set(try DueDateParser(now: now, calendar: SystemLocalCalendar()).parse($0.string())) }
                ?? .remove
        }
        if let remind = try document.change("remind") {
            changes.remind = try remind.map {
                .set(try DueDateParser(now: now, calendar: SystemLocalCalendar()).reminder($0.string()))
            } ?? .remove
        }
        if let rule = try document.change("repeat") {
            changes.repeatRule = try rule.map { .set(try RepeatRule(parsing: $0.string())) } ?? .remove
        }
        changes.repeatFrom = try repeatAnchor(document)
        guard !changes.isEmpty || tags.replacement != nil else {
            throw MemoError(.usage, en: "nothing to change: give at least one of title, note, priority, due, remind, tags, "
                                + "add_tags, remove_tags, repeat, repeat_from",
                            ko: "바꿀 것이 없습니다: title, note, priority, due, remind, tags, add_tags, remove_tags, repeat, "
                                + "repeat_from 중 하나 이상을 주세요")
        }
        return (changes, tags.replacement)
    }
}

/// What the to-do routes read: the list's query and the bodies, stated
/// once (the document shows them; the keys a body may have are read off them).
extension MemoRoutes {
    static let todoListQuery: [RouteDescription.Parameter] = [
        .init("status", DocumentSchema.choice(["open", "done", "all"]), "open (the default), done or all"),
        Describe.tags,
        .init("due", DocumentSchema.choice(TodoQuery.DueWindow.allCases.map(\.rawValue)),
              "week: due by the end of the 7th day, overdue ones included"),
        .init("due_before", DocumentSchema.string, "the due words; a date alone: before it begins"),
        .init("due_after", DocumentSchema.string, "the due words; a date alone: after it ends"),
        .init("priority", DocumentSchema.choice(Priority.allCases.flatMap(Priority.spellings)), "high, medium or low"),
        .init("sort", DocumentSchema.choice(TodoQuery.Sort.allCases.map(\.rawValue)),
              "created: oldest first; newest: the last added first"),
    ]

    /// A to-do's words for when: the command line's (`tomorrow`, `fri 18:30`,
    /// `2026-12-04`) or RFC 3339 (`due_at` as read).
    static let dueWords = DocumentSchema.nullable(DocumentSchema.string)

    static let newTodoSchema = DocumentSchema.object([
        ("title", Describe.title), ("note", DocumentSchema.nullable(DocumentSchema.string)),
        ("priority", DocumentSchema.nullable(DocumentSchema.choice(Priority.allCases.flatMap(Priority.spellings)))),
        ("tags", Describe.tagList),
        ("due", dueWords), ("remind", dueWords), ("repeat", DocumentSchema.nullable(DocumentSchema.string)),
        ("repeat_from", DocumentSchema.nullable(DocumentSchema.choice(["due", "done"]))),
    ], optional: ["note", "priority", "tags", "due", "remind", "repeat", "repeat_from"])

    static let todoChangesSchema = DocumentSchema.changes([
        ("title", DocumentSchema.nullable(Describe.title)), ("note", DocumentSchema.nullable(DocumentSchema.string)),
        ("priority", DocumentSchema.nullable(DocumentSchema.choice(Priority.allCases.flatMap(Priority.spellings)))),
        ("due", dueWords), ("remind", dueWords), ("repeat", DocumentSchema.nullable(DocumentSchema.string)),
        ("repeat_from", DocumentSchema.nullable(DocumentSchema.choice(["due", "done"]))),
    ] + tagChangeMembers)

    /// `tags` (the whole list), `add_tags`, `remove_tags`.
    static let tagChangeMembers: [(String, JSON)] = JSONBody.tagKeys.sorted().map { ($0, Describe.tagList) }
}
