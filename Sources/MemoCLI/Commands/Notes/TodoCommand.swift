import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `memoapp todo …`: to-dos with due dates, priorities and tags.
enum TodoCommand {
    static func make() -> Command {
        Command(
            "todo",
            abstract: Localized(en: "to-dos: add, list, finish", ko: "할 일: 추가, 목록, 완료"),
            options: listOptions,
            subcommands: [.later("add") { add }, .later("list") { list }, .later("show") { show }, .later("done") { done },
                          .later("undo") { undo }, .later("edit") { edit }, .later("rm") { remove },
                          .later("clear") { clear }, .later("import") { NotesImportCommands.todoImport }],
            exclusiveOptions: [[all, doneOnly]],
            discussion: whenHelp,
            body: { context, arguments in try runList(context, arguments) })
    }

    static let todoNoun = Localized(en: "to-dos", ko: "할 일")

    static let whenHelp = Localized(
        en: "WHEN: \(DueDateParser.acceptedForms.en). Local time zone; a date alone means by the end of that day. "
            + "--remind takes the same forms; a date alone means \(Due.dateOnlyReminderTime) that day ('memoapp remind' "
            + "tells of it).",
        ko: "WHEN: \(DueDateParser.acceptedForms.ko). 현지 시간 기준이며, 날짜만 쓰면 그날 끝까지입니다. "
            + "--remind도 같은 형식이며, 날짜만 쓰면 그날 \(Due.dateOnlyReminderTime)입니다 ('memoapp remind'가 알려 줍니다).")

    // MARK: - Declarations

    static let due = OptionKey<String>("due", "WHEN", help: Localized(en: "when it is due", ko: "마감"))
    static let priority = NotesArguments.priority(Localized(en: "how urgent", ko: "우선순위"))
    static let tags = NotesArguments.tags(Localized(en: "a tag (repeatable)", ko: "태그 (여러 번 가능)"))
    static let note = OptionKey<String>("note", "TEXT", help: Localized(en: "a note beside the title", ko: "제목 옆 메모"))
    static let title = Arguments<String>("TITLE", help: Localized(en: "the title (words are joined)",
                                                                  ko: "제목 (단어를 이어 붙임)"))
    static let all = Flag("all", help: Localized(en: "open and done", ko: "진행 중과 완료 모두"))
    static let doneOnly = Flag("done", help: Localized(en: "done ones only", ko: "완료한 것만"))
    static let onlyTag = NotesArguments.tagFilter
    static let dueWindow = OptionKey<TodoQuery.DueWindow>(
        "due", "today|overdue|week", help: Localized(en: "due today, overdue, or by the end of the 7th day (overdue ones too)",
                                                     ko: "오늘, 지남, 7일째 끝까지 마감 (지난 것 포함)"))
    static let dueBefore = OptionKey<String>("due-before", "WHEN", help: Localized(en: "due before WHEN (a date: before it begins)",
                                                                                 ko: "WHEN 전 마감 (날짜면 그날이 시작되기 전)"))
    static let dueAfter = OptionKey<String>("due-after", "WHEN", help: Localized(en: "due after WHEN (a date: after it ends)",
                                                                               ko: "WHEN 후 마감 (날짜면 그날이 끝난 뒤)"))
    static let onlyPriority = NotesArguments.priority(Localized(en: "only this priority", ko: "이 우선순위만"))
    static let sort = OptionKey<TodoQuery.Sort>("sort", "due|priority|created|newest",
                                                help: Localized(en: "order (default: due; newest: last added first)",
                                                                 ko: "정렬 (기본: due; newest: 최근 것부터)"))
    static let listLimit = NotesArguments.limit
    static let listOptions: [any OptionDeclaration] = [all, doneOnly, onlyTag, dueWindow, dueBefore, dueAfter, onlyPriority,
                                                       sort, listLimit]
    static let id = NotesArguments.id(help: Localized(en: "the to-do's id", ko: "할 일 id"))
    static let ids = NotesArguments.ids(help: Localized(en: "one or more ids, lists or ranges (1-3,5); all or none change",
                                                        ko: "id 하나 이상, 목록이나 범위 (1-3,5); 모두 바뀌거나 하나도 안 바뀜"))
    static let removedIDs = NotesArguments.ids(help: Localized(en: "one or more ids, lists or ranges (1-3,5); all or none are removed",
                                                               ko: "id 하나 이상, 목록이나 범위 (1-3,5); 모두 지우거나 하나도 안 지움"))
    static let newTitle = OptionKey<String>("title", "T", help: Localized(en: "new title", ko: "새 제목"))
    static let newDue = OptionKey<String>("due", "WHEN", help: Localized(en: "new due date", ko: "새 마감"))
    static let noDue = Flag("no-due", help: Localized(en: "remove the due date", ko: "마감 없애기"))
    static let remind = OptionKey<String>("remind", "WHEN", help: Localized(en: "when 'memoapp remind' reminds of it",
                                                                           ko: "'memoapp remind'가 알려 줄 때"))
    static let noRemind = Flag("no-remind", help: Localized(en: "remove the reminder time", ko: "알림 시각 없애기"))
    static let newPriority = OptionKey<TodoChanges.Change<Priority>>(
        "priority", "P", kind: .suggested(Priority.allCases.reversed().map(\.name) + ["none"]),
        help: Localized(en: "new priority (none removes it)", ko: "새 우선순위 (none이면 없앰)"),
        decode: { $0.lowercased() == "none" ? .remove : .set(try Priority(parsing: $0)) })
    static let addedTags = NotesArguments.tags(Localized(en: "add a tag (repeatable)", ko: "태그 추가 (여러 번 가능)"))
    static let removedTags = NotesArguments.untags
    static let repeatRule = OptionKey<RepeatRule>(
        "repeat", "RULE", kind: .suggested(["daily", "weekly", "monthly", "yearly", "weekdays"]), help: Localized(en: "come back when done: daily, weekly, monthly, yearly, weekdays, every 2 weeks",
                                          ko: "완료하면 다시: daily, weekly, monthly, yearly, weekdays, every 2 weeks"),
        decode: { try RepeatRule(parsing: $0) })
    static let repeatFrom = OptionKey<RepeatRule.Anchor>(
        "repeat-from", "due|done", help: Localized(en: "count the next date from the due date (default) or the day it is done",
                                                   ko: "다음 날짜를 마감(기본)이나 완료한 날부터 세기"))
    static let noRepeat = Flag("no-repeat", help: Localized(en: "stop repeating", ko: "반복 없애기"))
    static let repeatHelp = Localized(
        en: "RULE: \(RepeatRule.acceptedForms.en). A repeating to-do needs a due date; done, it comes back due on "
            + "the rule's next date after today (with --repeat-from done, counted from the day it was done).",
        ko: "RULE: \(RepeatRule.acceptedForms.ko). 반복하는 할 일에는 마감이 필요합니다. 완료하면 규칙에 따른 오늘 이후의 "
            + "다음 날짜로 다시 생깁니다 (--repeat-from done이면 완료한 날부터 셉니다).")
    static let whenAndRepeatHelp = Localized(en: whenHelp.en + "\n" + repeatHelp.en, ko: whenHelp.ko + "\n" + repeatHelp.ko)
    static let newNote = OptionKey<String>("note", "TEXT", help: Localized(en: "new note (empty removes it)",
                                                                          ko: "새 메모 (빈 값이면 없앰)"))

    static let add = Command(
        "add", abstract: Localized(en: "add a to-do", ko: "할 일 추가"),
        options: [due, remind, priority, tags, note, repeatRule, repeatFrom],
        positionals: [title],
        discussion: whenAndRepeatHelp,
        body: { context, arguments in try runAdd(context, arguments) })

    static let list = Command(
        "list", abstract: Localized(en: "list open to-dos (soonest due first)", ko: "진행 중인 할 일 목록 (마감 순)"),
        options: listOptions,
        exclusiveOptions: [[all, doneOnly]],
        body: { context, arguments in try runList(context, arguments) })

    static let show = Command(
        "show", abstract: Localized(en: "show one to-do", ko: "할 일 하나 보기"),
        positionals: [id],
        body: { context, arguments in
            let todo = try context.todoStore().todo(id: arguments[id])
            let renderer = TodoRenderer(context)
            let tracked = try TimeTracking.timeSpent(onTodo: todo.id, in: context.workspace)
            try context.emit(json: renderer.detail(todo, timeSpent: tracked.spent.seconds),
                             text: renderer.details(todo, timeSpent: tracked))
        })

    static let done = Command(
        "done", abstract: Localized(en: "mark to-dos done", ko: "할 일 완료 표시"),
        positionals: [ids],
        body: { context, arguments in
            // Which were done already, to say so rather than "Done" again.
            let store = try context.todoStore()
            let alreadyDone = Set(arguments[ids].filter { (try? store.todo(id: $0))?.isDone ?? false })
            let (todos, next) = try context.apply(FinishTodos(ids: arguments[ids]))
            let renderer = TodoRenderer(context)
            let width = String((todos + next).map(\.id).max() ?? 0).count
            var lines: [TerminalText] = todos.map { todo in
                (alreadyDone.contains(todo.id) ? context.text(en: "Already done", ko: "이미 완료")
                                               : context.text(en: "Done", ko: "완료"))
                    + ": " + renderer.line(todo, idWidth: width)
            }
            // A recurring to-do's next occurrence, added by finishing it.
            lines += next.map { context.text(en: "Next", ko: "다음") + ": " + renderer.line($0, idWidth: width) }
            try context.emit(json: renderer.json(todos), text: lines.joined(separator: "\n"))
        })

    static let undo = Command(
        "undo", abstract: Localized(en: "reopen done to-dos", ko: "완료한 할 일 되돌리기"),
        positionals: [ids],
        body: { context, arguments in
            let todos = try context.apply(ReopenTodos(ids: arguments[ids]))
            try report(todos, context, en: "Reopened", ko: "다시 열기")
        })

    static let edit = Command(
        "edit", abstract: Localized(en: "change a to-do", ko: "할 일 고치기"),
        options: [newTitle, newDue, noDue, remind, noRemind, newPriority, addedTags, removedTags, newNote, repeatRule,
                  noRepeat, repeatFrom],
        positionals: [id],
        exclusiveOptions: [[newDue, noDue], [remind, noRemind], [repeatRule, noRepeat], [noRepeat, repeatFrom]],
        discussion: whenAndRepeatHelp,
        body: { context, arguments in try runEdit(context, arguments) })

    static let remove = Command(
        "rm", abstract: Localized(en: "remove to-dos for good", ko: "할 일 지우기"),
        options: [BulkConfirmation.yes],
        positionals: [removedIDs],
        body: { context, arguments in
            try BulkConfirmation.removing(Set(arguments[removedIDs]).count, todoNoun, context, arguments)
            let todos = try context.apply(RemoveTodos(ids: arguments[removedIDs]))
            try report(todos, context, en: "Removed", ko: "지움", isRemoval: true)
        })

    static let clear = Command(
        "clear", abstract: Localized(en: "remove every done to-do", ko: "완료한 할 일 모두 지우기"),
        options: [BulkConfirmation.yes],
        body: { context, arguments in
            var doneOnes = TodoQuery()
            doneOnes.status = .done
            try BulkConfirmation.removing(try context.todoStore().todos(matching: doneOnes).count, Localized(en: "done to-dos", ko: "완료한 할 일"), context, arguments)
            let removed = try context.apply(ClearDoneTodos())
            let count = removed.count
            try context.emit(json: WireFormat.removed(removed.map(TodoRenderer(context).json)),
                         text: context.text(en: count == 1 ? "Removed 1 done to-do." : "Removed \(count) done to-dos.",
                                            ko: "완료한 할 일 \(count)개를 지웠습니다."))
        })

    // MARK: - Bodies

    static func runAdd(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let dates = DueDateParser(now: context.clock.now(), calendar: context.calendar)
        let new = try context.parsingArgument(arguments) {
            NewTodo(title: arguments[title].joined(separator: " "),
                    note: arguments[note],
                    priority: arguments[priority],
                    tags: try Tags.normalized(arguments[tags]),
                    due: try arguments[due].map(dates.parse),
                    repeatRule: try repeatRule(arguments),
                    remindAt: try arguments[remind].map(dates.reminder))
        }
        let todo = try context.parsingArgument(arguments) { try context.apply(AddTodo(new)) }
        let renderer = TodoRenderer(context)
        try context.emit(json: renderer.json(todo),
                     text: context.text(en: "Added to-do ", ko: "할 일 추가: ") + renderer.line(todo, idWidth: 0))
        try cautionAbout(new.due, dates, context)
    }

    /// A due far in the past or years ahead is taken, as typed, and the
    /// user told on stderr: a mistyped year is then seen at once.
    static func cautionAbout(_ due: Due?, _ dates: DueDateParser, _ context: CommandContext) throws {
        guard let due, let warning = dates.warning(for: due) else { return }
        try context.warn(warning.text(in: context.language))
    }

    static func runList(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        var query = TodoQuery()
        if arguments[all] { query.status = .all }
        if arguments[doneOnly] { query.status = .done }
        query.due = arguments[dueWindow]
        query.sort = arguments[sort] ?? .due
        query.priority = arguments[onlyPriority]
        query.tags = try context.parsingArgument(arguments) { try TagFilter(parsing: arguments[onlyTag]) }
        let dates = DueDateParser(now: context.clock.now(), calendar: context.calendar)
        query.dueBefore = try context.parsingArgument(arguments) { try arguments[dueBefore].map(dates.start(of:)) }
        query.dueAfter = try context.parsingArgument(arguments) { try arguments[dueAfter].map(dates.end(of:)) }
        query.limit = arguments[listLimit]
        let store = try context.todoStore()
        let renderer = TodoRenderer(context)
        let isFiltered = !query.tags.isEmpty || query.due != nil || query.priority != nil || query.dueBefore != nil
            || query.dueAfter != nil
        let empty: String
        switch (query.status, isFiltered) {
        case (_, true): empty = context.text(en: "No matching to-dos.", ko: "조건에 맞는 할 일이 없습니다.")
        case (.done, false): empty = context.text(en: "No done to-dos.", ko: "완료한 할 일이 없습니다.")
        case (.open, false): empty = context.text(en: "No open to-dos.", ko: "진행 중인 할 일이 없습니다.")
        case (.all, false): empty = context.text(en: "No to-dos.", ko: "할 일이 없습니다.")
        }
        guard !context.isJSON else {
            let todos = try store.todos(matching: query)
            return try context.emit(json: renderer.json(todos), text: "")
        }
        // Text is written as it is read: the first line comes at once and a
        // list of any length takes no more memory than a line.
        let table = renderer.table(largestID: try store.largestID(matching: query) ?? 0)
        var isEmpty = true
        try store.forEachTodo(matching: query) { todo in
            if isEmpty { try context.write(table.header + "\n") }
            var row = renderer.row(todo, in: table)
            row += "\n"
            try context.write(row)
            // The first row goes out at once; the rest in large writes.
            if isEmpty { try context.flush() }
            isEmpty = false
        }
        if isEmpty { try context.emit(json: .array([]), text: empty) }
    }

    static func runEdit(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let now = context.clock.now()
        let changes = try context.parsingArgument(arguments) { () throws -> TodoChanges in
            var changes = TodoChanges(title: arguments[newTitle],
                                      addedTags: arguments[addedTags], removedTags: arguments[removedTags])
            if let note = arguments[newNote] { changes.note = note.isEmpty ? .remove : .set(note) }
            if let priority = arguments[newPriority] { changes.priority = priority }
            if arguments[noDue] { changes.due = .remove }
            if let when = arguments[newDue] {
                changes.due = .set(try DueDateParser(now: now, calendar: context.calendar).parse(when))
            }
            if arguments[noRepeat] { changes.repeatRule = .remove }
            if let rule = arguments[repeatRule] { changes.repeatRule = .set(rule) }
            changes.repeatFrom = arguments[repeatFrom]
            if arguments[noRemind] { changes.remind = .remove }
            if let when = arguments[remind] {
                changes.remind = .set(try DueDateParser(now: now, calendar: context.calendar).reminder(when))
            }
            return changes
        }
        guard !changes.isEmpty else {
            throw UsageError(Localized(en: "nothing to change: give at least one option",
                                       ko: "바꿀 것이 없습니다: 옵션을 하나 이상 주세요"), path: arguments.path)
        }
        let todo = try context.parsingArgument(arguments) {
            try context.apply(EditTodo(id: arguments[id], changes))
        }
        let renderer = TodoRenderer(context)
        try context.emit(json: renderer.json(todo),
                     text: context.text(en: "Changed ", ko: "고침: ") + renderer.line(todo, idWidth: 0))
        if case .set(let due) = changes.due {
            try cautionAbout(due, DueDateParser(now: now, calendar: context.calendar), context)
        }
    }

    /// `--repeat` with its `--repeat-from`, or nil; `--repeat-from` alone
    /// is a usage error.
    static func repeatRule(_ arguments: ParsedArguments) throws -> RepeatRule? {
        guard var rule = arguments[repeatRule] else {
            guard arguments[repeatFrom] == nil else {
                throw MemoError(.usage, en: "--repeat-from needs --repeat", ko: "--repeat-from에는 --repeat가 필요합니다")
            }
            return nil
        }
        rule.from = arguments[repeatFrom] ?? .due
        return rule
    }

    /// The to-dos a multi-id command acted on: an array in JSON, a line each in text.
    static func report(_ todos: [Todo], _ context: CommandContext, en: String, ko: String,
                       isRemoval: Bool = false) throws {
        let renderer = TodoRenderer(context)
        let width = String(todos.map(\.id).max() ?? 0).count
        let text = todos.map { context.text(en: en, ko: ko) + ": " + renderer.line($0, idWidth: width) }
        try context.emit(json: isRemoval ? WireFormat.removed(todos.map(renderer.json)) : renderer.json(todos),
                     text: text.joined(separator: "\n"))
    }
}
