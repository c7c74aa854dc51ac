import CommandLineKit
import MemoCore
import Notes

/// What the to-do, memo and search commands share: their stores over the
/// invocation's database, the local calendar, and argument helpers.
extension CommandContext {
    /// The process's local time zone; `TZ` decides, as everywhere on Linux.
    var calendar: SystemLocalCalendar { SystemLocalCalendar() }

    func todoStore() throws -> TodoStore {
        try workspace.todoStore()
    }

    func memoStore() throws -> MemoStore {
        try workspace.memoStore()
    }

    /// A MemoError of kind `.usage` thrown by a value parser (WHEN, priority,
    /// tag, query) becomes a usage error of the command, so the usage line and
    /// the pointer to --help are shown as for any other bad argument.
    func parsingArgument<T>(_ arguments: ParsedArguments, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MemoError where error.kind == .usage {
            throw UsageError(error.message, path: arguments.path)
        }
    }
}

/// Declarations the note commands share.
enum NotesArguments {
    /// Ids are positive integers (SQLite rowids).
    static let idRange = 1...Int(Int64.max)

    /// One or more ids, lists and ranges (`3 4`, `1-3,5`).
    static func ids(help: Localized) -> IDArguments {
        IDArguments("ID", range: 1...Int64.max, help: help)
    }

    static func id(help: Localized) -> Argument<Int64> {
        Argument("ID", range: idRange, help: help)
    }

    /// `--tag T`, repeatable, each cleaned by the tag rules while parsing.
    static func tags(_ help: Localized) -> RepeatedOptionKey<String> {
        RepeatedOptionKey("tag", "T", help: help, decode: { try Tags.normalized($0) })
    }

    /// `--tag T` of a list, repeatable: every tag given must be there, and
    /// `-T` must not (`TagFilter`).
    static let tagFilter = RepeatedOptionKey<String>(
        "tag", "T", help: Localized(en: "only with this tag; -T: without it (repeatable: all must hold)",
                                    ko: "이 태그가 있는 것만; -T: 없는 것만 (여러 번: 모두 만족)"),
        decode: { try TagFilter.checked($0) })
    /// `--untag T`, repeatable: a tag to take away (any case). Not cleaned
    /// while parsing, as `todo edit` has always taken it: the store cleans it.
    static let untags = RepeatedOptionKey<String>("untag", "T", help: Localized(en: "remove a tag (repeatable)",
                                                                               ko: "태그 빼기 (여러 번 가능)"))

    /// `--tag T`, once.
    static func tag(_ help: Localized) -> OptionKey<String> {
        OptionKey("tag", "T", help: help, decode: { try Tags.normalized($0) })
    }

    /// `--limit N` on a list: the first N only.
    static let limit = OptionKey<Int>("limit", "N", range: 1...Int(Int32.max),
                                      help: Localized(en: "the first N only", ko: "앞의 N개만"))

    /// `--priority P` (high, medium, low and their synonyms, which its help lists).
    static func priority(_ help: Localized) -> OptionKey<Priority> {
        let synonyms = Priority.allCases.reversed().flatMap { Priority.spellings($0).dropFirst() }.joined(separator: ", ")
        return OptionKey("priority", "high|medium|low", kind: .suggested(Priority.allCases.reversed().map(\.name)),
                         help: Localized(en: help.en + " (also \(synonyms))", ko: help.ko + " (\(synonyms)도 됨)"),
                         decode: { try Priority(parsing: $0) })
    }
}

/// Colour and text widths for lists.
enum NotesText {
    /// Right-aligns `id` to the width of the largest id in the list.
    static func paddedID(_ id: Int64, width: Int) -> String {
        let text = String(id)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `#a #b`, or nothing.
    static func tags(_ tags: [String]) -> String {
        tags.map { "#" + $0 }.joined(separator: " ")
    }
}
