import MemoCore

/// The typed keys a command declares its arguments with and its body reads
/// them by: `arguments[TodoCommand.priority]` is a `Priority?`, decoded and
/// checked while parsing. A key is the declaration itself, so renaming an
/// option renames what reads it, and reading a key the command did not
/// declare is a programmer's mistake that stops the program.

/// `--name`, on or off.
public struct Flag: OptionDeclaration {
    public let option: Option

    public init(_ name: String, short: Character? = nil, help: Localized) {
        option = Option(name: name, short: short, valueName: nil, kind: .text, isRepeatable: false, isRequired: false,
                        help: help, decode: nil)
    }
}

/// `--name VALUE`, at most once, decoded to `Value`.
public struct OptionKey<Value: Sendable>: OptionDeclaration {
    public let option: Option

    public init(_ name: String, short: Character? = nil, _ valueName: String, kind: ValueKind = .text,
                required: Bool = false, help: Localized, decode: @escaping @Sendable (String) throws -> Value) {
        option = Option(name: name, short: short, valueName: valueName, kind: kind, isRepeatable: false,
                        isRequired: required, help: help, decode: { try decode($0) })
    }
}

/// `--name VALUE`, any number of times, each decoded to `Value`, in order.
public struct RepeatedOptionKey<Value: Sendable>: OptionDeclaration {
    public let option: Option

    public init(_ name: String, short: Character? = nil, _ valueName: String, kind: ValueKind = .text,
                help: Localized, decode: @escaping @Sendable (String) throws -> Value) {
        option = Option(name: name, short: short, valueName: valueName, kind: kind, isRepeatable: true,
                        isRequired: false, help: help, decode: { try decode($0) })
    }
}

/// A positional that must be there.
public struct Argument<Value: Sendable>: PositionalDeclaration {
    public let positional: Positional

    public init(_ name: String, kind: ValueKind = .text, help: Localized,
                decode: @escaping @Sendable (String) throws -> Value) {
        positional = Positional(name: name, kind: kind, arity: .required, help: help, decode: { try decode($0) })
    }
}

/// A positional that may be left out.
public struct OptionalArgument<Value: Sendable>: PositionalDeclaration {
    public let positional: Positional

    public init(_ name: String, kind: ValueKind = .text, help: Localized,
                decode: @escaping @Sendable (String) throws -> Value) {
        positional = Positional(name: name, kind: kind, arity: .optional, help: help, decode: { try decode($0) })
    }
}

/// The rest of the words, at least `minimum` of them.
public struct Arguments<Value: Sendable>: PositionalDeclaration {
    public let positional: Positional

    public init(_ name: String, kind: ValueKind = .text, minimum: Int = 1, help: Localized,
                decode: @escaping @Sendable (String) throws -> Value) {
        positional = Positional(name: name, kind: kind, arity: .variadic(minimum: minimum), help: help,
                                decode: { try decode($0) })
    }
}

// MARK: - Common value types

/// Text as typed.
public let asText: @Sendable (String) throws -> String = { $0 }

extension OptionKey where Value == String {
    public init(_ name: String, short: Character? = nil, _ valueName: String, kind: ValueKind = .text,
                required: Bool = false, help: Localized) {
        self.init(name, short: short, valueName, kind: kind, required: required, help: help, decode: asText)
    }
}

extension OptionKey where Value == Int {
    /// A whole number within `range` (checked while parsing).
    public init(_ name: String, short: Character? = nil, _ valueName: String, range: ClosedRange<Int>,
                help: Localized) {
        self.init(name, short: short, valueName, kind: .integer(range), help: help) { Int($0) ?? 0 }
    }
}

extension OptionKey where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the type's cases, by its raw value (completion offers them all).
    public init(_ name: String, short: Character? = nil, _ valueName: String, required: Bool = false,
                help: Localized) {
        self.init(name, short: short, valueName, kind: .choice(Value.allCases.map { $0.rawValue }), required: required,
                  help: help) { Value(rawValue: $0)! }
    }
}

extension RepeatedOptionKey where Value == String {
    public init(_ name: String, short: Character? = nil, _ valueName: String, kind: ValueKind = .text,
                help: Localized) {
        self.init(name, short: short, valueName, kind: kind, help: help, decode: asText)
    }
}

extension Argument where Value == String {
    public init(_ name: String, kind: ValueKind = .text, help: Localized) {
        self.init(name, kind: kind, help: help, decode: asText)
    }
}

extension OptionalArgument where Value == String {
    public init(_ name: String, kind: ValueKind = .text, help: Localized) {
        self.init(name, kind: kind, help: help, decode: asText)
    }
}

extension Arguments where Value == String {
    public init(_ name: String, kind: ValueKind = .text, minimum: Int = 1, help: Localized) {
        self.init(name, kind: kind, minimum: minimum, help: help, decode: asText)
    }
}

extension Argument where Value == Int64 {
    /// A whole number within `range` (checked while parsing).
    public init(_ name: String, range: ClosedRange<Int>, help: Localized) {
        self.init(name, kind: .integer(range), help: help) { Int64($0) ?? 0 }
    }
}

extension OptionalArgument where Value == Int64 {
    public init(_ name: String, range: ClosedRange<Int>, help: Localized) {
        self.init(name, kind: .integer(range), help: help) { Int64($0) ?? 0 }
    }
}

extension Arguments where Value == Int64 {
    public init(_ name: String, range: ClosedRange<Int>, minimum: Int = 1, help: Localized) {
        self.init(name, kind: .integer(range), minimum: minimum, help: help) { Int64($0) ?? 0 }
    }
}
