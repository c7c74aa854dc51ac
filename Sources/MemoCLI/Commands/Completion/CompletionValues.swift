import CommandLineKit
import MemoKit

/// What may be typed for a positional or an option's value, as every script
/// generator needs it: read from the declarations (choices, paths, the value
/// name `DIR` for folders, `ID` for items) and from where the command sits
/// (a `todo` ID is a to-do's, `todo done` offers the open ones).
enum CompletionValue: Equatable {
    /// One of these words.
    case words([String])
    case files
    case folders
    /// Words the data gives (`memoapp __complete SOURCE`).
    case data(CompletionCandidates.Source)
    /// Free text or a number: nothing to offer.
    case nothing

    static func of(_ positional: Positional, at path: [String]) -> CompletionValue {
        if positional.name == "ID", let source = itemSource(at: path) { return .data(source) }
        return of(positional.kind, valueName: positional.name)
    }

    static func of(_ option: Option, at path: [String]) -> CompletionValue {
        switch option.name {
        // `timer start --todo ID`: time is spent on a to-do still open.
        case "todo" where option.valueName == "ID": return .data(.openTodos)
        case "tag", "untag": return .data(path.first == "voice" ? .voiceTags : .tags)
        default: return of(option.kind, valueName: option.valueName ?? "")
        }
    }

    /// The items a command's ID names; nil where an ID is not one of the four kinds.
    static func itemSource(at path: [String]) -> CompletionCandidates.Source? {
        switch (path.first, path.dropFirst().first) {
        case ("todo", "done"): return .openTodos
        case ("todo", "undo"): return .doneTodos
        case ("todo", _): return .todos
        case ("memo", _): return .memos
        case ("voice", _): return .voiceMemos
        case ("timer", _): return .timers
        default: return nil
        }
    }

    private static func of(_ kind: ValueKind, valueName: String) -> CompletionValue {
        switch kind {
        case let .choice(words), let .suggested(words): return .words(words)
        case .path: return valueName == "DIR" ? .folders : .files
        case .text, .integer: return .nothing
        }
    }
}
