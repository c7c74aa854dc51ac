import MemoCore

/// What a value on the command line must look like, for help and completion:
/// free text, a whole number in a range, one of some words, or a path. The
/// value is checked against it, then decoded, while parsing.
public enum ValueKind: Sendable {
    case text
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// One of the listed words (completion offers them).
    case choice([String])
    /// Free text whose usual words completion offers; the decoder takes
    /// more (synonyms, `every 2 weeks`) and judges it.
    case suggested([String])
    /// A file or folder name: any text to the parser, a file name to shell completion.
    case path
}

/// A value's decoding: text to a typed value, or an error saying why not
/// (a `MemoError` of kind `.usage` is shown as its message).
public typealias ValueDecoder = @Sendable (String) throws -> any Sendable

/// A named option, type-erased for the parser: a flag (`--all`) or one that
/// takes a value (`--tag T`). Commands declare options through the typed keys
/// (`Flag`, `OptionKey`, `RepeatedOptionKey`), which bodies read them by.
public struct Option: Sendable {
    public let name: String
    public let short: Character?
    /// Placeholder shown in usage, e.g. `WHEN`; nil for a flag.
    public let valueName: String?
    public let kind: ValueKind
    /// May be given more than once (`--tag a --tag b`).
    public let isRepeatable: Bool
    /// Must be given (shown in usage without brackets).
    public let isRequired: Bool
    public let help: Localized
    let decode: ValueDecoder?

    init(name: String, short: Character?, valueName: String?, kind: ValueKind, isRepeatable: Bool,
         isRequired: Bool, help: Localized, decode: ValueDecoder?) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.kind = kind
        self.isRepeatable = isRepeatable
        self.isRequired = isRequired
        self.help = help
        self.decode = decode
    }

    public var takesValue: Bool { valueName != nil }
}

/// A positional argument, type-erased for the parser; declared through
/// `Argument`, `OptionalArgument` or `Arguments`.
public struct Positional: Sendable {
    public enum Arity: Sendable {
        case required
        case optional
        /// One or more (or zero or more when `minimum` is 0).
        case variadic(minimum: Int)
    }

    public let name: String
    public let kind: ValueKind
    public let arity: Arity
    public let help: Localized
    let decode: ValueDecoder
}

/// Whatever declares an option: the typed keys.
public protocol OptionDeclaration: Sendable {
    var option: Option { get }
}

/// Whatever declares a positional argument: the typed keys.
public protocol PositionalDeclaration: Sendable {
    var positional: Positional { get }
}

/// Whether a command waits for the application to be set up (memoapp: the
/// onboarding completed) before it runs.
public enum Access: Sendable {
    /// Refused until then (the default, so a new command cannot forget it).
    case gated
    /// Runs before that too (help, set-up, diagnosis…). Applies to subcommands.
    case alwaysRuns
}

/// A command: a name, a one-line abstract, what it accepts, and either
/// subcommands or a body (or both: a body for the bare command). `Context` is
/// what the front end hands every body.
public struct Command<Context> {
    public typealias Body = (Context, ParsedArguments) throws -> Void

    public let name: String
    public let abstract: Localized
    public var options: [Option]
    public var positionals: [Positional]
    /// The subcommands, each built when first asked for (see `later`).
    public var subcommands: [Command] {
        get { children.map { $0.command } }
        set { children = newValue.map(Child.init) }
    }
    var children: [Child]

    /// Adds subcommands at the end, building none of those already there.
    public mutating func append(subcommands more: [Command]) {
        children += more.map(Child.init)
    }

    /// Whether the command groups subcommands (without building them).
    public var hasSubcommands: Bool { !children.isEmpty }
    public var access: Access
    /// Groups of options of which at most one may be given (`--all | --done`).
    public var exclusiveOptions: [[String]]
    /// Extra lines for `--help`: examples, accepted forms.
    public var discussion: Localized?
    public var body: Body?

    public init(_ name: String, abstract: Localized, options: [any OptionDeclaration] = [],
                positionals: [any PositionalDeclaration] = [], subcommands: [Command] = [], access: Access = .gated,
                exclusiveOptions: [[any OptionDeclaration]] = [], discussion: Localized? = nil, body: Body? = nil) {
        self.name = name
        self.abstract = abstract
        self.options = options.map { $0.option }
        self.positionals = positionals.map { $0.positional }
        self.children = subcommands.map(Child.init)
        self.access = access
        self.exclusiveOptions = exclusiveOptions.map { group in group.map { $0.option.name } }
        self.discussion = discussion
        self.body = body
    }

    public func subcommand(named name: String) -> Command? {
        children.first { $0.name == name }?.command
    }

    /// A subcommand declared by its name and built only when the command line
    /// reaches it (or help or completion lists it): a run builds the commands
    /// on its path, not the whole tree, which start-up would pay for.
    public static func later(_ name: String, _ make: @escaping () -> Command) -> Command {
        var placeholder = Command(name, abstract: Localized(verbatim: ""))
        placeholder.deferred = Deferred(make: make)
        return placeholder
    }

    /// Set on a `later` placeholder: how to build the real command.
    var deferred: Deferred?

    final class Deferred {
        let make: () -> Command
        init(make: @escaping () -> Command) { self.make = make }
    }

    /// A subcommand slot: its name at once, the command on first use.
    final class Child {
        let name: String
        private var built: Command?
        private let make: (() -> Command)?

        init(_ command: Command) {
            name = command.name
            if let deferred = command.deferred {
                make = deferred.make
            } else {
                built = command
                make = nil
            }
        }

        var command: Command {
            if let built { return built }
            let command = make!()
            precondition(command.name == name, "subcommand '\(name)' builds a command named '\(command.name)'")
            built = command
            return command
        }
    }
}
