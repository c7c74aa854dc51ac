import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `/api/v1/memos`: the command line's `memo` commands as routes.
extension MemoRoutes {
    static let memoWord = Localized(en: "memo", ko: "메모")

    static func addMemos(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/memos", Describe.list("Memo summaries (a preview, not the text)", "MemoSummary",
                                                          query: memoListQuery)) { request in
            let query = try memoQuery(request, now: services.clock.now())
            let summaries = try services.read { try $0.memoStore().summaries(matching: query) }
            // A cursor follows the default order only: other orders have no next link.
            let isPaged = query.sort == nil && !query.isReversed
            return Paging.linking(.json(.array(summaries.map(WireFormat.memo))), request, itemCount: summaries.count,
                                  limit: query.limit ?? 0) { isPaged ? summaries.last.map(Paging.memoCursor) : nil }
        }
        router.json(.post, "/api/v1/memos", Describe.create("Add a memo", "Memo", body: newMemoSchema)) { request, body in
            try services.idempotency.perform(request, body: body) {
                let document = try JSONBody.object(body, allowedKeys: Set(newMemoSchema.propertyNames))
                let new = NewMemo(text: try document.string("text"), title: try document.optionalString("title"),
                                  tags: try Tags.normalized(document.strings("tags")),
                                  isPinned: try document.optionalBool("pinned") ?? false)
                let memo = try services.apply(AddMemo(new), for: request)
                var response = Items.response(WireFormat.memo(memo), for: request, status: 201)
                response.headers.set("Location", "/api/v1/memos/\(memo.id)")
                return response
            }
        }
        router.route(.get, "/api/v1/memos/{id}", Describe.item("One memo, its text whole", "Memo")) { request in
            let id = try request.itemID(.memo, services)
            let memo = try services.read { try $0.memoStore().memo(id: id) }
            return Items.response(WireFormat.memo(memo), for: request)
        }
        router.json(.patch, "/api/v1/memos/{id}", Describe.change("Change a memo's text, title or tags", "Memo",
                                                                  body: memoChangesSchema, isPost: false)) { request, body in
            let id = try request.itemID(.memo, services)
            let document = try JSONBody.object(body, allowedKeys: Set(memoChangesSchema.propertyNames))
            let text = try document.optionalString("text")
            // null or "" removes the title, as an empty title does on the command line.
            let title = try document.change("title").map { try $0?.string() ?? "" }
            let tags = try document.tagChanges(clean: Tags.normalized(_:))
            guard text != nil || title != nil || !tags.isEmpty else {
                throw MemoError(.usage, en: "nothing to change: give text, title, tags, add_tags or remove_tags",
                                ko: "바꿀 것이 없습니다: text, title, tags, add_tags, remove_tags 중 하나 이상을 주세요")
            }
            let memo = try services.apply(EditMemo(id: id, text: text, title: title, tags: tags), for: request) {
                try checkMemoPrecondition(request, id: id, $0)
            }
            return Items.response(WireFormat.memo(memo), for: request)
        }
        router.route(.delete, "/api/v1/memos/{id}",
                     Describe.change("Remove a memo", "Memo", answer: DocumentSchema.removed("Memo"),
                                     isPost: false)) { request in
            let id = try request.itemID(.memo, services)
            let removed = try services.apply(RemoveMemos(ids: [id]), for: request) {
                try checkMemoPrecondition(request, id: id, $0)
            }
            return .json(WireFormat.removed(removed.map(WireFormat.memo)))
        }
        for (name, isPinned) in [("pin", true), ("unpin", false)] {
            router.action("/api/v1/memos/{id}/\(name)", services,
                          Describe.change(isPinned ? "Pin a memo" : "Unpin a memo", "Memo")) { request in
                let id = try request.itemID(.memo, services)
                let memo = try services.apply(PinMemo(id: id, isPinned: isPinned), for: request) {
                    try checkMemoPrecondition(request, id: id, $0)
                }
                return Items.response(WireFormat.memo(memo), for: request)
            }
        }
    }

    /// Refuses a change whose `If-Match` names another revision of memo
    /// `id` than the stored one (412 with the current memo).
    static func checkMemoPrecondition(_ request: Request, id: Int64, _ workspace: Workspace) throws {
        guard request.headers["If-Match"] != nil else { return }
        try Items.checkPrecondition(request, current: WireFormat.memo(workspace.memoStore().memo(id: id)))
    }

    static func addSearch(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/search", RouteDescription(
            "Search to-dos, memos and voice memo titles, best first",
            query: [.init("q", DocumentSchema.string, "the words", required: true),
                    .init("any", Describe.flag, "any word instead of all"), Describe.limit],
            answers: [Describe.json(200, "the hits, at most limit of every kind together",
                                    DocumentSchema.array(DocumentSchema.ref("SearchHit")))])) { request in
            guard let text = request.queryValue("q") else {
                throw MemoError(.usage, en: "search needs 'q'", ko: "검색에는 'q'가 필요합니다")
            }
            // `any=1` as `any=true`: the same words every flag takes.
            let query = try SearchQuery(text, combination: request.queryBool("any") ? .any : .all)
            let limit = try listLimit(request)
            let results = try services.read { try Search.run(query, limit: limit, in: $0) }
            // `limit` is of all hits together: the notes' and the voice
            // memos' are each limited by the search, so their sum is cut.
            let hits = results.notes.hits.map(WireFormat.searchHit)
                + results.voice.map { WireFormat.searchHit(voice: $0.memo, title: $0.title) }
            return .json(.array(Array(hits.prefix(limit))))
        }
    }

    /// The list's filters: the command line's `memo list` options as query items.
    static func memoQuery(_ request: Request, now: Timestamp) throws -> MemoQuery {
        let dates = DueDateParser(now: now, calendar: SystemLocalCalendar())
        return MemoQuery(tags: try TagFilter(parsing: request.queryValues("tag")),
                         pinnedOnly: try request.queryBool("pinned"),
                         since: try request.queryValue("since").map(dates.start(of:)),
                         until: try request.queryValue("until").map(dates.end(of:)),
                         sort: try request.queryChoice("sort", MemoQuery.Sort.self),
                         isReversed: try request.queryBool("reverse"),
                         limit: try listLimit(request), after: try Paging.memoPosition(request))
    }
}

/// What the memo routes read, stated once.
extension MemoRoutes {
    static let memoListQuery: [RouteDescription.Parameter] = [
        Describe.tags,
        .init("pinned", Describe.flag, "pinned memos only"),
        .init("since", DocumentSchema.string, "made then or later (the due words: 2026-12-01, yesterday)"),
        .init("until", DocumentSchema.string, "made then or earlier (the due words)"),
        .init("sort", DocumentSchema.choice(MemoQuery.Sort.allCases.map(\.rawValue)),
              "default: pinned first, then newest; a cursor follows the default order only"),
        .init("reverse", Describe.flag, "the other way round"),
    ]

    static let newMemoSchema = DocumentSchema.object([
        ("text", Describe.text), ("title", DocumentSchema.nullable(Describe.oneLine)), ("tags", Describe.tagList),
        ("pinned", DocumentSchema.nullable(DocumentSchema.boolean)),
    ], optional: ["title", "tags", "pinned"])

    static let memoChangesSchema = DocumentSchema.changes([
        ("text", DocumentSchema.nullable(Describe.text)), ("title", DocumentSchema.nullable(Describe.oneLine)),
    ] + tagChangeMembers)
}
