import MemoCore

/// What a value on the command line must look like; checked while parsing, so
/// a command's body reads values that are already valid.
public enum ValueKind: Sendable {
    case text
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// One of the listed words.
    case choice([String])
    /// A file or folder name: any text to the parser, a file name to shell completion.
    case path
}

/// A named option: a flag (`--all`) or one that takes a value (`--tag T`).
public struct Option: Sendable {
    public let name: String
    public let short: Character?
    /// Placeholder shown in usage, e.g. `WHEN`; nil for a flag.
    public let valueName: String?
    public let kind: ValueKind
    /// May be given more than once (`--tag a --tag b`).
    public let isRepeatable: Bool
    public let help: Localized

    /// A flag that takes no value.
    public static func flag(_ name: String, short: Character? = nil, help: Localized) -> Option {
        Option(name: name, short: short, valueName: nil, kind: .text, isRepeatable: false, help: help)
    }

    /// An option that takes a value.
    public static func value(_ name: String, short: Character? = nil, _ valueName: String,
                             kind: ValueKind = .text, repeatable: Bool = false, help: Localized) -> Option {
        Option(name: name, short: short, valueName: valueName, kind: kind, isRepeatable: repeatable, help: help)
    }

    public var takesValue: Bool { valueName != nil }
}

/// A positional argument.
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

    public init(_ name: String, kind: ValueKind = .text, arity: Arity = .required, help: Localized) {
        self.name = name
        self.kind = kind
        self.arity = arity
        self.help = help
    }
}

/// Whether a command waits for the onboarding to be completed.
public enum Access: Sendable {
    /// Refused with exit 3 until the onboarding is completed (the default, so a
    /// new command cannot forget the gate).
    case gated
    /// Runs before onboarding too (onboard, doctor, help, …). Applies to subcommands.
    case alwaysRuns
}

/// A command: a name, a one-line abstract, what it accepts, and either
/// subcommands or a body (or both: a body for the bare command).
public struct Command {
    public typealias Body = (CommandContext, ParsedArguments) throws -> Void

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

    public init(_ name: String, abstract: Localized, options: [Option] = [], positionals: [Positional] = [],
                subcommands: [Command] = [], access: Access = .gated, exclusiveOptions: [[String]] = [],
                discussion: Localized? = nil, body: Body? = nil) {
        self.name = name
        self.abstract = abstract
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.access = access
        self.exclusiveOptions = exclusiveOptions
        self.discussion = discussion
        self.body = body
    }

    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}
