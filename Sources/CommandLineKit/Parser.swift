import MemoCore

/// The result of parsing argv: which command, its arguments, and the global options.
public struct Invocation<Context> {
    /// Root first, the command to run last.
    public let commands: [Command<Context>]
    public let arguments: ParsedArguments
    /// The global options' values (read with the global options' keys).
    public let globals: ParsedArguments
    /// `--help` or `--version` was given: checks of the rest were skipped.
    public let wantsHelp: Bool
    public let wantsVersion: Bool

    public var command: Command<Context> { commands[commands.count - 1] }
    public var path: [String] { arguments.path }
}

/// Matches argv against a command tree: descends into subcommands by name,
/// accepts the global options anywhere before `--`, `--name=value`, short
/// options (`-h`, `-o FILE`, `-oFILE`), and checks and decodes every value
/// against its declaration.
public struct Parser<Context> {
    public let root: Command<Context>
    public let globalOptions: [Option]
    let helpFlag: String
    let versionFlag: String

    public init(root: Command<Context>, globalOptions: [any OptionDeclaration], helpFlag: String = "help",
                versionFlag: String = "version") {
        self.root = root
        self.globalOptions = globalOptions.map { $0.option }
        self.helpFlag = helpFlag
        self.versionFlag = versionFlag
    }

    /// Parses `arguments` (argv without the program name). When the help or
    /// version flag is present, value and arity checks are skipped so that help
    /// always answers, however incomplete the rest of the line.
    public func parse(_ arguments: [String]) throws -> Invocation<Context> {
        var commands = [root]
        var globals = ParsedArguments(path: [])
        globals.declaredOptions = Set(globalOptions.map { $0.name })
        var parsed = ParsedArguments(path: [])
        var positionals: [String] = []
        var deferredError: UsageError?
        var unknownCommand: UsageError?
        var isAfterDoubleDash = false
        var index = 0

        func fail(_ message: Localized) {
            if deferredError == nil {
                deferredError = UsageError(message, path: commands.dropFirst().map { $0.name })
            }
        }
        func fail(_ en: String, _ ko: String) { fail(Localized(en: en, ko: ko)) }
        func record(_ option: Option, value: String?, isGlobal: Bool) {
            if isGlobal {
                store(option, value: value, into: &globals, fail: fail)
            } else {
                store(option, value: value, into: &parsed, fail: fail)
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
                guard let (option, isGlobal) = lookUp(long: name, in: commands[commands.count - 1]) else {
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
                record(option, value: value, isGlobal: isGlobal)
                continue
            }
            if token.count > 1, token.hasPrefix("-"), Double(token) == nil {
                // Short options: `-h`, or `-n VALUE`; several flags may share one dash.
                let letters = Array(token.dropFirst())
                for (offset, letter) in letters.enumerated() {
                    guard let (option, isGlobal) = lookUp(short: letter, in: commands[commands.count - 1]) else {
                        fail("unknown option '-\(letter)'", "알 수 없는 옵션 '-\(letter)'")
                        break
                    }
                    guard option.takesValue else {
                        record(option, value: nil, isGlobal: isGlobal)
                        continue
                    }
                    let rest = String(letters[(offset + 1)...])
                    if !rest.isEmpty {
                        record(option, value: rest, isGlobal: isGlobal)
                    } else if index < arguments.count {
                        record(option, value: arguments[index], isGlobal: isGlobal)
                        index += 1
                    } else {
                        fail("option '-\(letter)' needs a value", "옵션 '-\(letter)'에 값이 필요합니다")
                    }
                    break
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
            if positionals.isEmpty, command.hasSubcommands, command.positionals.isEmpty {
                let names = command.children.map(\.name)
                if let name = CommandSuggestion.expansion(of: token, among: names), let sub = command.subcommand(named: name) {
                    commands.append(sub)
                    continue
                }
                // Not deferred past --help: help for a command that does not
                // exist would be some other command's help.
                if unknownCommand == nil {
                    unknownCommand = UsageError(CommandSuggestion.unknownCommand(token, among: names),
                                                path: commands.dropFirst().map { $0.name })
                }
                continue
            }
            positionals.append(token)
        }

        let command = commands[commands.count - 1]
        let path = commands.dropFirst().map { $0.name }
        var result = ParsedArguments(path: path)
        result.flags = parsed.flags
        result.values = parsed.values
        result.declaredOptions = Set(command.options.map { $0.name })
        result.declaredPositionals = Set(command.positionals.map { $0.name })
        let wantsHelp = globals.isGiven(named: helpFlag)
        let wantsVersion = globals.isGiven(named: versionFlag)
        func invocation() -> Invocation<Context> {
            Invocation(commands: commands, arguments: result, globals: globals, wantsHelp: wantsHelp,
                       wantsVersion: wantsVersion)
        }
        if let unknownCommand { throw unknownCommand }
        if wantsHelp || wantsVersion { return invocation() }
        if let deferredError { throw UsageError(deferredError.message, path: path) }
        try assign(positionals, to: command, into: &result)
        try checkRequired(command, result)
        try checkExclusive(command, result)
        return invocation()
    }

    /// Why `value` does not fit `kind`, or nil when it does.
    public static func check(_ value: String, against kind: ValueKind) -> Localized? {
        switch kind {
        case .text, .path, .suggested:
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

    // MARK: - Private

    /// Why a value was refused.
    struct Problem: Error {
        let message: Localized
        init(_ message: Localized) { self.message = message }
    }

    private func lookUp(long name: String, in command: Command<Context>) -> (Option, Bool)? {
        if let option = command.options.first(where: { $0.name == name }) { return (option, false) }
        if let option = globalOptions.first(where: { $0.name == name }) { return (option, true) }
        return nil
    }

    private func lookUp(short letter: Character, in command: Command<Context>) -> (Option, Bool)? {
        if let option = command.options.first(where: { $0.short == letter }) { return (option, false) }
        if let option = globalOptions.first(where: { $0.short == letter }) { return (option, true) }
        return nil
    }

    /// Checks and decodes one option's value and keeps it.
    private func store(_ option: Option, value: String?, into parsed: inout ParsedArguments,
                       fail: (Localized) -> Void) {
        guard let value, let decode = option.decode else {
            parsed.flags.insert(option.name)
            return
        }
        if !option.isRepeatable, parsed.values[option.name] != nil {
            fail(Localized(en: "option '--\(option.name)' given twice", ko: "옵션 '--\(option.name)'이 두 번 주어졌습니다"))
            return
        }
        switch Parser.decoded(value, kind: option.kind, decode: decode, name: "'--\(option.name)'") {
        case let .success(decoded): parsed.values[option.name, default: []].append(decoded)
        case let .failure(problem): fail(problem.message)
        }
    }

    /// `value` checked against `kind`, then decoded; or what is wrong with it.
    /// A decoder's own usage message is shown as it is.
    private static func decoded(_ value: String, kind: ValueKind, decode: ValueDecoder,
                                name: String) -> Result<any Sendable, Problem> {
        if let problem = check(value, against: kind) {
            return .failure(Problem(Localized(en: "invalid value '\(value)' for \(name): \(problem.en)",
                                              ko: "\(name)의 값 '\(value)'이 올바르지 않습니다: \(problem.ko)")))
        }
        do {
            return .success(try decode(value))
        } catch let error as MemoError where error.kind == .usage {
            return .failure(Problem(error.message))
        } catch {
            return .failure(Problem(Localized(en: "invalid value '\(value)' for \(name): \(error)",
                                              ko: "\(name)의 값 '\(value)'이 올바르지 않습니다: \(error)")))
        }
    }

    private func assign(_ words: [String], to command: Command<Context>, into parsed: inout ParsedArguments) throws {
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
            var taken: [String] = []
            switch positional.arity {
            case .required:
                guard let word = remaining.popFirst() else {
                    throw usage("missing \(positional.name)", "\(positional.name)이 필요합니다")
                }
                taken = [word]
            case .optional:
                if let word = remaining.popFirst() { taken = [word] }
            case let .variadic(minimum):
                guard remaining.count >= minimum else {
                    throw usage("missing \(positional.name)", "\(positional.name)이 필요합니다")
                }
                taken = Array(remaining)
                remaining = []
            }
            var values: [any Sendable] = []
            for word in taken {
                switch Parser.decoded(word, kind: positional.kind, decode: positional.decode, name: positional.name) {
                case let .success(value):
                    values.append(value)
                case let .failure(problem):
                    throw UsageError(Parser.positionalProblem(problem.message, word: word, name: positional.name), path: path)
                }
            }
            if !taken.isEmpty { parsed.positionalValues[positional.name] = values }
        }
        if let extra = remaining.first {
            throw usage("unexpected argument '\(extra)'", "예상하지 못한 인수 '\(extra)'")
        }
    }

    /// A positional's kind check reads `invalid ID 'x': expected …`.
    private static func positionalProblem(_ problem: Localized, word: String, name: String) -> Localized {
        let prefixEn = "invalid value '\(word)' for \(name): "
        let prefixKo = "\(name)의 값 '\(word)'이 올바르지 않습니다: "
        guard problem.en.hasPrefix(prefixEn) else { return problem }
        return Localized(en: "invalid \(name) '\(word)': " + problem.en.dropFirst(prefixEn.count),
                         ko: "\(name) '\(word)'이 올바르지 않습니다: " + problem.ko.dropFirst(prefixKo.count))
    }

    private func checkRequired(_ command: Command<Context>, _ parsed: ParsedArguments) throws {
        for option in command.options where option.isRequired && !parsed.isGiven(named: option.name) {
            throw UsageError(Localized(en: "missing --\(option.name) \(option.valueName ?? "")",
                                       ko: "--\(option.name) \(option.valueName ?? "")이 필요합니다"), path: parsed.path)
        }
    }

    private func checkExclusive(_ command: Command<Context>, _ parsed: ParsedArguments) throws {
        for group in command.exclusiveOptions {
            let given = group.filter { parsed.isGiven(named: $0) }
            if given.count > 1 {
                let names = given.map { "--\($0)" }.joined(separator: ", ")
                throw UsageError(Localized(en: "options \(names) cannot be used together",
                                           ko: "옵션 \(names)은 함께 쓸 수 없습니다"), path: parsed.path)
            }
        }
    }
}
