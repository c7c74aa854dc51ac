import MemoCore

/// The result of parsing argv: which command, its arguments, and the global flags.
public struct Invocation {
    /// Root first, the command to run last.
    public let commands: [Command]
    public let arguments: ParsedArguments
    public let globals: GlobalOptions

    public var command: Command { commands[commands.count - 1] }
    public var path: [String] { arguments.path }
}

/// Matches argv against a command tree: descends into subcommands by name,
/// accepts the global flags anywhere before `--`, `--name=value`, `-h`, and
/// checks every value against its declared kind.
public struct Parser {
    public let root: Command

    public init(root: Command) {
        self.root = root
    }

    /// Parses `arguments` (argv without the program name). When `--help` or
    /// `--version` is present, value and arity checks are skipped so that help
    /// always answers, however incomplete the rest of the line.
    public func parse(_ arguments: [String]) throws -> Invocation {
        var commands = [root]
        var globals = GlobalOptions()
        var parsed = ParsedArguments(path: [])
        var positionals: [String] = []
        var deferredError: UsageError?
        var isAfterDoubleDash = false
        var index = 0

        func fail(_ en: String, _ ko: String) {
            if deferredError == nil {
                deferredError = UsageError(Localized(en: en, ko: ko), path: commands.dropFirst().map(\.name))
            }
        }

        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if isAfterDoubleDash {
                positionals.append(token)
                continue
            }
            if token == "--" {
                isAfterDoubleDash = true
                continue
            }
            if token.hasPrefix("--") {
                var name = String(token.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                let command = commands[commands.count - 1]
                guard let (option, isGlobal) = lookUp(long: name, in: command) else {
                    fail("unknown option '--\(name)'", "알 수 없는 옵션 '--\(name)'")
                    continue
                }
                var value: String?
                if option.takesValue {
                    if let inlineValue {
                        value = inlineValue
                    } else if index < arguments.count {
                        value = arguments[index]
                        index += 1
                    } else {
                        fail("option '--\(name)' needs a value (\(option.valueName ?? ""))",
                             "옵션 '--\(name)'에 값(\(option.valueName ?? ""))이 필요합니다")
                        continue
                    }
                } else if inlineValue != nil {
                    fail("option '--\(name)' takes no value", "옵션 '--\(name)'은 값을 받지 않습니다")
                    continue
                }
                record(option, value: value, isGlobal: isGlobal, into: &parsed, globals: &globals, fail: fail)
                continue
            }
            if token.count > 1, token.hasPrefix("-"), !isNumber(token) {
                // Short options: `-h`, or `-n VALUE`; several flags may share one dash.
                let letters = Array(token.dropFirst())
                for (offset, letter) in letters.enumerated() {
                    let command = commands[commands.count - 1]
                    guard let (option, isGlobal) = lookUp(short: letter, in: command) else {
                        fail("unknown option '-\(letter)'", "알 수 없는 옵션 '-\(letter)'")
                        break
                    }
                    var value: String?
                    if option.takesValue {
                        let rest = String(letters[(offset + 1)...])
                        if !rest.isEmpty {
                            value = rest
                        } else if index < arguments.count {
                            value = arguments[index]
                            index += 1
                        } else {
                            fail("option '-\(letter)' needs a value", "옵션 '-\(letter)'에 값이 필요합니다")
                            break
                        }
                        record(option, value: value, isGlobal: isGlobal, into: &parsed, globals: &globals, fail: fail)
                        break
                    }
                    record(option, value: nil, isGlobal: isGlobal, into: &parsed, globals: &globals, fail: fail)
                }
                continue
            }
            // A word: a subcommand name while the command has subcommands and
            // no positional has been taken yet; otherwise a positional.
            let command = commands[commands.count - 1]
            if positionals.isEmpty, let sub = command.subcommand(named: token) {
                commands.append(sub)
                continue
            }
            if positionals.isEmpty, !command.subcommands.isEmpty, command.positionals.isEmpty {
                fail("unknown command '\(token)'", "알 수 없는 명령 '\(token)'")
                continue
            }
            positionals.append(token)
        }

        let path = commands.dropFirst().map(\.name)
        parsed = parsed.withPath(path)
        let invocation = Invocation(commands: commands, arguments: parsed, globals: globals)
        if globals.wantsHelp || globals.wantsVersion { return invocation }
        if let deferredError { throw UsageError(deferredError.message, path: path) }

        let command = commands[commands.count - 1]
        try assign(positionals, to: command, into: &parsed)
        try checkExclusive(command, parsed)
        return Invocation(commands: commands, arguments: parsed, globals: globals)
    }

    // MARK: - Private

    private func lookUp(long name: String, in command: Command) -> (Option, Bool)? {
        if let option = command.options.first(where: { $0.name == name }) { return (option, false) }
        if let option = GlobalOptions.declarations.first(where: { $0.name == name }) { return (option, true) }
        return nil
    }

    private func lookUp(short letter: Character, in command: Command) -> (Option, Bool)? {
        if let option = command.options.first(where: { $0.short == letter }) { return (option, false) }
        if let option = GlobalOptions.declarations.first(where: { $0.short == letter }) { return (option, true) }
        return nil
    }

    private func record(_ option: Option, value: String?, isGlobal: Bool, into parsed: inout ParsedArguments,
                        globals: inout GlobalOptions, fail: (String, String) -> Void) {
        if let value, let problem = Parser.check(value, against: option.kind) {
            fail("invalid value '\(value)' for '--\(option.name)': \(problem.en)",
                 "'--\(option.name)'의 값 '\(value)'이 올바르지 않습니다: \(problem.ko)")
            return
        }
        if isGlobal {
            globals.set(option.name, value: value)
        } else if let value {
            if !option.isRepeatable, parsed.values[option.name] != nil {
                fail("option '--\(option.name)' given twice", "옵션 '--\(option.name)'이 두 번 주어졌습니다")
                return
            }
            parsed.values[option.name, default: []].append(value)
        } else {
            parsed.flags.insert(option.name)
        }
    }

    private func assign(_ words: [String], to command: Command, into parsed: inout ParsedArguments) throws {
        let path = parsed.path
        func usage(_ en: String, _ ko: String) -> UsageError {
            UsageError(Localized(en: en, ko: ko), path: path)
        }
        if command.body == nil {
            // A command that only groups subcommands and has no body of its own.
            throw usage("missing subcommand", "하위 명령이 필요합니다")
        }
        var remaining = words[...]
        for positional in command.positionals {
            switch positional.arity {
            case .required:
                guard let word = remaining.popFirst() else {
                    throw usage("missing \(positional.name)", "\(positional.name)이 필요합니다")
                }
                parsed.positionalValues[positional.name] = [word]
            case .optional:
                if let word = remaining.popFirst() { parsed.positionalValues[positional.name] = [word] }
            case let .variadic(minimum):
                guard remaining.count >= minimum else {
                    throw usage("missing \(positional.name)", "\(positional.name)이 필요합니다")
                }
                parsed.positionalValues[positional.name] = Array(remaining)
                remaining = []
            }
            for word in parsed.positionals(positional.name) {
                if let problem = Parser.check(word, against: positional.kind) {
                    throw usage("invalid \(positional.name) '\(word)': \(problem.en)",
                                "\(positional.name) '\(word)'이 올바르지 않습니다: \(problem.ko)")
                }
            }
        }
        if let extra = remaining.first {
            throw usage("unexpected argument '\(extra)'", "예상하지 못한 인수 '\(extra)'")
        }
    }

    private func checkExclusive(_ command: Command, _ parsed: ParsedArguments) throws {
        for group in command.exclusiveOptions {
            let given = group.filter { parsed.isGiven($0) }
            if given.count > 1 {
                let names = given.map { "--\($0)" }.joined(separator: ", ")
                throw UsageError(Localized(en: "options \(names) cannot be used together",
                                           ko: "옵션 \(names)은 함께 쓸 수 없습니다"), path: parsed.path)
            }
        }
    }

    /// Why `value` does not fit `kind`, or nil when it does.
    static func check(_ value: String, against kind: ValueKind) -> Localized? {
        switch kind {
        case .text, .path:
            return nil
        case let .integer(range):
            guard let number = Int(value) else {
                return Localized(en: "expected a whole number", ko: "정수가 필요합니다")
            }
            guard range.contains(number) else {
                return Localized(en: "expected \(range.lowerBound) to \(range.upperBound)",
                                 ko: "\(range.lowerBound)부터 \(range.upperBound)까지여야 합니다")
            }
            return nil
        case let .choice(words):
            guard words.contains(value) else {
                let list = words.joined(separator: ", ")
                return Localized(en: "expected one of \(list)", ko: "\(list) 중 하나여야 합니다")
            }
            return nil
        }
    }

    private func isNumber(_ token: String) -> Bool {
        Double(token) != nil
    }
}

extension ParsedArguments {
    func withPath(_ path: [String]) -> ParsedArguments {
        var copy = ParsedArguments(path: path)
        copy.flags = flags
        copy.values = values
        copy.positionalValues = positionalValues
        return copy
    }
}
