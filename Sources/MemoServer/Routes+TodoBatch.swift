import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `POST /api/v1/todos/batch`: one change to many to-dos, as the command
/// line's `todo done 3 4 7-9` makes one. The whole list is one change through
/// the one door, so it is one step of the undo history: one undo (the page's
/// "Undo" after a bulk action) brings every item back, and one unknown id
/// changes nothing. Per-item routes in a loop would leave as many steps as
/// items, and a failure half-way would leave half of them changed.
extension MemoRoutes {
    /// The most ids one request takes: a page's selection is far smaller, and
    /// the limit keeps one request's transaction (and its undo images) short.
    static let batchLimit = 1000

    static func addTodoBatch(to router: inout Router, _ services: ServerServices) {
        router.json(.post, "/api/v1/todos/batch", todoBatchDescription) { request, body in
            try services.idempotency.perform(request, body: body) {
                let document = try JSONBody.object(body, allowedKeys: Set(todoBatchSchema.propertyNames))
                let ids = try batchIDs(document)
                let tags = try Tags.normalized(document.strings("tags"))
                let action = try document.string("action")
                let hasTags = try document.member("tags") != nil
                guard action == "tag" || !hasTags else {
                    throw MemoError(.usage, en: "'tags' goes only with the action tag",
                                    ko: "'tags'는 tag 동작에만 씁니다")
                }
                let encoder = encoder(services)
                func answer(_ todos: [Todo], next: [Todo] = []) -> Response {
                    .json(.object([("action", .string(action)), ("todos", .array(todos.map(encoder.json))),
                                   ("next", .array(next.map(encoder.json)))]))
                }
                switch action {
                case "done":
                    let finished = try services.apply(FinishTodos(ids: ids), for: request)
                    return answer(finished.done, next: finished.next)
                case "remove":
                    return answer(try services.apply(RemoveTodos(ids: ids), for: request))
                case "tag":
                    guard !tags.isEmpty else {
                        throw MemoError(.usage, en: "the action tag needs 'tags': at least one tag",
                                        ko: "tag 동작에는 'tags'에 태그가 하나 이상 필요합니다")
                    }
                    return answer(try services.apply(TagTodos(ids: ids, adding: tags), for: request))
                default:
                    throw MemoError(.usage, en: "'action' must be one of done, remove, tag",
                                    ko: "'action' 값은 done, remove, tag 중 하나여야 합니다")
                }
            }
        }
    }

    /// `ids`: 1 to `batchLimit` integers (repeats count once, as on the
    /// command line). An id no to-do has is the store's 404, naming them all.
    static func batchIDs(_ document: JSONReader) throws -> [Int64] {
        let elements = try document.elements("ids")
        guard !elements.isEmpty else {
            throw MemoError(.usage, en: "'ids' is empty: name at least one to-do", ko: "'ids'가 비었습니다: 할 일을 하나 이상 주세요")
        }
        guard elements.count <= batchLimit else {
            throw MemoError(.usage, en: "'ids' names \(elements.count) to-dos; at most \(batchLimit) at a time",
                            ko: "'ids'에 할 일이 \(elements.count)개입니다. 한 번에 \(batchLimit)개까지입니다")
        }
        return try elements.map { try $0.int() }
    }

    static let todoBatchSchema = DocumentSchema.object([
        ("action", DocumentSchema.choice(["done", "remove", "tag"])),
        ("ids", .object([("type", .string("array")), ("items", Describe.minimumInteger(1, maximum: Int(Int64.max))),
                         ("minItems", .int(1)), ("maxItems", .int(batchLimit))])),
        ("tags", DocumentSchema.array(Describe.tag)),
    ], optional: ["tags"])

    static let todoBatchDescription: RouteDescription = {
        let result = DocumentSchema.object([
            ("action", DocumentSchema.string), ("todos", DocumentSchema.array(DocumentSchema.ref("Todo"))),
            ("next", DocumentSchema.array(DocumentSchema.ref("Todo"))),
        ])
        return RouteDescription(
            "One change to many to-dos, one undo step: done (next: recurring ones' next occurrences), remove, "
                + "tag (adds tags)",
            headers: [Describe.idempotencyKey], body: RouteDescription.Body("application/json", todoBatchSchema),
            answers: [
                Describe.json(200, "the to-dos as they are now (removed: as they were)", result, headers: [Describe.undoStep]),
                Describe.json(404, "an id no to-do has (all are named; nothing changed)", DocumentSchema.ref("Error")),
                Describe.json(409, "a retry while the first is running", DocumentSchema.ref("Error")),
                Describe.json(422, "a body that is not this object: no ids, more than 1000, not integers",
                              DocumentSchema.ref("Error")),
            ])
    }()
}
