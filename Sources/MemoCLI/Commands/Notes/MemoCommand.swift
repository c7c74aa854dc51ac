import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `memoapp memo …`: text memos, kept exactly as written.
enum MemoCommand {
    static func make() -> Command {
        Command(
            "memo",
            abstract: Localized(en: "text memos: add, list, search", ko: "메모: 추가, 목록, 검색"),
            options: [onlyTag, pinnedOnly, since, until, sort, reverse, listLimit],
            subcommands: [.later("add") { add }, .later("list") { list }, .later("show") { show },
                          .later("edit") { edit }, .later("pin") { pin }, .later("unpin") { unpin },
                          .later("rm") { remove }, .later("search") { SearchCommand.make(kinds: [.memo]) },
                          .later("import") { NotesImportCommands.memoImport },
                          .later("export") { MemoExportCommand.command }],
            body: { context, arguments in try runList(context, arguments) })
    }

    // MARK: - Declarations

    static let title = OptionKey<String>("title", "T", help: Localized(en: "a title", ko: "제목"))
    static let tags = NotesArguments.tags(Localized(en: "a tag (repeatable)", ko: "태그 (여러 번 가능)"))
    static let pinIt = Flag("pin", help: Localized(en: "pin it to the top", ko: "맨 위에 고정"))
    static let words = Arguments<String>("TEXT", minimum: 0,
                                         help: Localized(en: "the text (words are joined); none: stdin, or $EDITOR on a terminal",
                                                         ko: "내용 (단어를 이어 붙임); 없으면 표준 입력, 터미널이면 $EDITOR"))
    static let onlyTag = NotesArguments.tagFilter
    static let since = OptionKey<String>("since", "WHEN", help: Localized(en: "only those created on or after WHEN",
                                                                        ko: "WHEN 이후에 만든 것만"))
    static let until = OptionKey<String>("until", "WHEN", help: Localized(en: "only those created on or before WHEN",
                                                                        ko: "WHEN 이전에 만든 것만"))
    static let sort = OptionKey<MemoQuery.Sort>(
        "sort", "created|updated|title",
        help: Localized(en: "newest, last changed or title first (default: pinned, then newest)",
                        ko: "최신, 최근 수정, 제목 순 (기본: 고정 먼저, 그다음 최신)"))
    static let reverse = Flag("reverse", help: Localized(en: "the order turned around", ko: "순서 뒤집기"))
    static let listLimit = NotesArguments.limit
    static let pinnedOnly = Flag("pinned", help: Localized(en: "pinned ones only", ko: "고정한 것만"))
    static let id = NotesArguments.id(help: Localized(en: "the memo's id", ko: "메모 id"))
    static let newText = OptionKey<String>("text", "TEXT", help: Localized(en: "new text", ko: "새 내용"))
    static let newTitle = OptionKey<String>("title", "T", help: Localized(en: "new title (empty removes it)",
                                                                        ko: "새 제목 (빈 값이면 없앰)"))
    static let addedTags = NotesArguments.tags(Localized(en: "add a tag (repeatable)", ko: "태그 추가 (여러 번 가능)"))
    static let removedTags = NotesArguments.untags
    static let ids = NotesArguments.ids(help: Localized(en: "one or more ids, lists or ranges (1-3,5); all or none are removed",
                                                        ko: "id 하나 이상, 목록이나 범위 (1-3,5); 모두 지우거나 하나도 안 지움"))

    static let add = Command(
        "add", abstract: Localized(en: "add a memo", ko: "메모 추가"),
        options: [title, tags, pinIt],
        positionals: [words],
        body: { context, arguments in try runAdd(context, arguments) })

    static let list = Command(
        "list", abstract: Localized(en: "list memos, pinned first, then newest", ko: "메모 목록 (고정 먼저, 최신 순)"),
        options: [onlyTag, pinnedOnly, since, until, sort, reverse, listLimit],
        discussion: TodoCommand.whenHelp,
        body: { context, arguments in try runList(context, arguments) })

    static let show = Command(
        "show", abstract: Localized(en: "show one memo in full", ko: "메모 하나 전체 보기"),
        positionals: [id],
        body: { context, arguments in
            let memo = try context.memoStore().memo(id: arguments[id])
            let renderer = MemoRenderer(context: context)
            try context.emit(json: renderer.json(memo), text: renderer.details(memo))
        })

    static let edit = Command(
        "edit", abstract: Localized(en: "change a memo (no options: in $EDITOR)", ko: "메모 고치기 (옵션 없으면 $EDITOR)"),
        options: [newText, newTitle, addedTags, removedTags],
        positionals: [id],
        body: { context, arguments in try runEdit(context, arguments) })

    static let pin = Command(
        "pin", abstract: Localized(en: "pin a memo to the top", ko: "메모 고정"),
        positionals: [id],
        body: { context, arguments in try setPinned(true, context, arguments) })

    static let unpin = Command(
        "unpin", abstract: Localized(en: "unpin a memo", ko: "메모 고정 풀기"),
        positionals: [id],
        body: { context, arguments in try setPinned(false, context, arguments) })

    static let remove = Command(
        "rm", abstract: Localized(en: "remove memos for good", ko: "메모 지우기"),
        options: [BulkConfirmation.yes],
        positionals: [ids],
        body: { context, arguments in
            try BulkConfirmation.removing(Set(arguments[ids]).count, Localized(en: "memos", ko: "메모"), context, arguments)
            let memos = try context.apply(RemoveMemos(ids: arguments[ids]))
            try context.emit(json: WireFormat.removed(memos.map(WireFormat.memo)),
                         text: memos.map { context.text(en: "Removed memo #\($0.id)", ko: "메모 #\($0.id) 지움") }
                            .joined(separator: "\n"))
        })

    // MARK: - Bodies

    static func runAdd(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let words = arguments[MemoCommand.words]
        let tags = try Tags.normalized(arguments[MemoCommand.tags])
        func add(_ text: String, title: String?) throws -> Memo {
            try context.apply(AddMemo(NewMemo(text: text, title: title, tags: tags, isPinned: arguments[pinIt])))
        }
        let memo: Memo
        if !words.isEmpty {
            memo = try add(words.joined(separator: " "), title: arguments[title])
        } else if !context.isInputTerminal {
            memo = try add(MemoTextInput.readStandardInput(context), title: arguments[title])
        } else {
            // Written in an editor, a memo is a small Markdown file: a first
            // line `# 제목` is its title, as `import` reads a file's heading.
            memo = try MemoTextInput.edit("", context) { text in
                try add(text, title: arguments[title] ?? MemoFileReader.title(of: text))
            }
        }
        let renderer = MemoRenderer(context: context)
        try context.emit(json: renderer.json(memo),
                     text: context.text(en: "Added memo ", ko: "메모 추가: ")
                        + renderer.line(renderer.summary(of: memo), idWidth: 0))
    }

    static func runList(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let parser = DueDateParser(now: context.clock.now(), calendar: context.calendar)
        let query = try context.parsingArgument(arguments) {
            MemoQuery(tags: try TagFilter(parsing: arguments[onlyTag]), pinnedOnly: arguments[pinnedOnly],
                      since: try arguments[since].map(parser.start(of:)), until: try arguments[until].map(parser.end(of:)),
                      sort: arguments[sort], isReversed: arguments[reverse], limit: arguments[listLimit])
        }
        let store = try context.memoStore()
        let empty = !query.tags.isEmpty || query.pinnedOnly || query.since != nil || query.until != nil
            ? context.text(en: "No matching memos.", ko: "조건에 맞는 메모가 없습니다.")
            : context.text(en: "No memos yet.", ko: "메모가 아직 없습니다.")
        let renderer = MemoRenderer(context: context)
        guard !context.isJSON else {
            let summaries = try store.summaries(matching: query)
            return try context.emit(json: .array(summaries.map(renderer.json)), text: "")
        }
        // Text is written as it is read, a line at a time.
        let table = renderer.table(largestID: try store.largestID(matching: query) ?? 0)
        let dates = RelativeDate(now: context.clock.now(), calendar: context.calendar, language: context.language)
        var isEmpty = true
        try store.forEachSummary(matching: query) { summary in
            if isEmpty { try context.write(table.header + "\n") }
            try context.write(renderer.row(summary, in: table, dates: dates) + "\n")
            // The first row goes out at once; the rest in large writes.
            if isEmpty { try context.flush() }
            isEmpty = false
        }
        if isEmpty { try context.emit(json: .array([]), text: empty) }
    }

    static func runEdit(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try context.memoStore()
        let id = arguments[MemoCommand.id]
        let renderer = MemoRenderer(context: context)
        let memo: Memo
        let tags = TagChanges(added: arguments[addedTags], removed: arguments[removedTags])
        if arguments[newText] == nil && arguments[newTitle] == nil && tags.isEmpty {
            let current = try store.memo(id: id)
            // Saved only if no one changed the memo while the editor was open.
            let edited = try MemoTextInput.edit(current.text, context) { text -> Memo? in
                text == current.text ? nil : try context.apply(EditMemo(id: id, text: text, madeFrom: current))
            }
            guard let edited else {
                try context.emit(json: renderer.json(current),
                                 text: context.text(en: "No changes to memo #\(id).", ko: "메모 #\(id)에 바뀐 것이 없습니다."))
                return
            }
            memo = edited
        } else {
            memo = try context.parsingArgument(arguments) {
                try context.apply(EditMemo(id: id, text: arguments[newText], title: arguments[newTitle], tags: tags))
            }
        }
        try context.emit(json: renderer.json(memo),
                     text: context.text(en: "Changed memo ", ko: "메모 고침: ")
                        + renderer.line(renderer.summary(of: memo), idWidth: 0))
    }

    static func setPinned(_ isPinned: Bool, _ context: CommandContext, _ arguments: ParsedArguments) throws {
        let memo = try context.apply(PinMemo(id: arguments[id], isPinned: isPinned))
        let renderer = MemoRenderer(context: context)
        let verb = isPinned ? context.text(en: "Pinned ", ko: "고정: ") : context.text(en: "Unpinned ", ko: "고정 풀기: ")
        try context.emit(json: renderer.json(memo), text: verb + renderer.line(renderer.summary(of: memo), idWidth: 0))
    }
}
