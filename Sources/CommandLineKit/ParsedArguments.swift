/// The values a command was given, decoded and checked against its
/// declaration; read through the same keys that declared them.
public struct ParsedArguments: Sendable {
    /// The command path, e.g. ["todo", "add"].
    public let path: [String]
    var flags: Set<String> = []
    var values: [String: [any Sendable]] = [:]
    var positionalValues: [String: [any Sendable]] = [:]
    /// What the command declared, so that reading anything else stops the
    /// program instead of quietly answering "not given".
    var declaredOptions: Set<String> = []
    var declaredPositionals: Set<String> = []

    init(path: [String]) {
        self.path = path
    }

    public subscript(flag: Flag) -> Bool {
        checkDeclared(option: flag.option.name)
        return flags.contains(flag.option.name)
    }

    /// The option's value, or nil when it was not given.
    public subscript<Value>(key: OptionKey<Value>) -> Value? {
        checkDeclared(option: key.option.name)
        return values[key.option.name]?.last.map { $0 as! Value }
    }

    /// Every value of a repeatable option, in the order given.
    public subscript<Value>(key: RepeatedOptionKey<Value>) -> [Value] {
        checkDeclared(option: key.option.name)
        return (values[key.option.name] ?? []).map { $0 as! Value }
    }

    public subscript<Value>(key: Argument<Value>) -> Value {
        checkDeclared(positional: key.positional.name)
        guard let value = positionalValues[key.positional.name]?.first else {
            preconditionFailure("required argument \(key.positional.name) missing after parsing")
        }
        return value as! Value
    }

    public subscript<Value>(key: OptionalArgument<Value>) -> Value? {
        checkDeclared(positional: key.positional.name)
        return positionalValues[key.positional.name]?.first.map { $0 as! Value }
    }

    public subscript<Value>(key: Arguments<Value>) -> [Value] {
        checkDeclared(positional: key.positional.name)
        return (positionalValues[key.positional.name] ?? []).map { $0 as! Value }
    }

    /// Every id the words named (`3 4`, `1-3,5`), first mention first, each once.
    public subscript(key: IDArguments) -> [Int64] {
        checkDeclared(positional: key.positional.name)
        var seen = Set<Int64>()
        let ids = (positionalValues[key.positional.name] ?? []).flatMap { $0 as! [Int64] }
        return ids.filter { seen.insert($0).inserted }
    }

    /// Whether an option (flag or value) was given at all.
    public func isGiven(_ declaration: some OptionDeclaration) -> Bool {
        let name = declaration.option.name
        checkDeclared(option: name)
        return flags.contains(name) || values[name] != nil
    }

    func isGiven(named name: String) -> Bool {
        flags.contains(name) || values[name] != nil
    }

    private func checkDeclared(option name: String) {
        precondition(declaredOptions.contains(name), "'\(path.joined(separator: " "))' reads --\(name), which it does not declare")
    }

    private func checkDeclared(positional name: String) {
        precondition(declaredPositionals.contains(name), "'\(path.joined(separator: " "))' reads \(name), which it does not declare")
    }
}
