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
    public var subcommands: [Command]
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
        self.options = options.map(\.option)
        self.positionals = positionals.map(\.positional)
        self.subcommands = subcommands
        self.access = access
        self.exclusiveOptions = exclusiveOptions.map { $0.map(\.option.name) }
        self.discussion = discussion
        self.body = body
    }

    public func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}
