/// The values a command was given, already checked against its declaration.
public struct ParsedArguments: Sendable {
    /// The command path, e.g. ["todo", "add"].
    public let path: [String]
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionalValues: [String: [String]] = [:]

    init(path: [String]) {
        self.path = path
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a single-valued option (the last one given).
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option's value; the parser has already checked it.
    public func integer(_ name: String) -> Int? { value(name).flatMap { Int($0) } }

    /// Whether an option (flag or value) was given at all.
    public func isGiven(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// A single positional.
    public func positional(_ name: String) -> String? { positionalValues[name]?.first }

    /// A variadic positional's values.
    public func positionals(_ name: String) -> [String] { positionalValues[name] ?? [] }

    /// An integer positional; the parser has already checked it.
    public func integerPositional(_ name: String) -> Int? { positional(name).flatMap { Int($0) } }

    /// Every integer of a variadic positional.
    public func integerPositionals(_ name: String) -> [Int] { positionals(name).compactMap { Int($0) } }
}
