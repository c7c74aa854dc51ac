import MemoCore

/// Turns command declarations into `--help` text and usage lines, so help can
/// never drift from what the parser accepts.
public struct HelpRenderer<Context> {
    public let program: String
    public let root: Command<Context>
    public let globalOptions: [Option]
    public let language: Language

    public init(program: String, root: Command<Context>, globalOptions: [any OptionDeclaration], language: Language) {
        self.program = program
        self.root = root
        self.globalOptions = globalOptions.map { $0.option }
        self.language = language
    }

    public func command(at path: [String]) -> Command<Context> {
        var command = root
        for name in path {
            guard let sub = command.subcommand(named: name) else { break }
            command = sub
        }
        return command
    }

    /// E.g. `usage: memoapp todo add TITLE... [--due WHEN] [--tag T]...`;
    /// a required option without brackets.
    public func usageLine(for path: [String]) -> String {
        let command = command(at: path)
        var parts = [program] + path
        if command.hasSubcommands {
            parts.append(command.body == nil ? "COMMAND" : "[COMMAND]")
        }
        for positional in command.positionals {
            switch positional.arity {
            case .required: parts.append(positional.name)
            case .optional: parts.append("[\(positional.name)]")
            case let .variadic(minimum): parts.append(minimum > 0 ? "\(positional.name)..." : "[\(positional.name)...]")
            }
        }
        for option in command.options {
            var text = "--\(option.name)"
            if let valueName = option.valueName { text += " \(valueName)" }
            parts.append((option.isRequired ? text : "[\(text)]") + (option.isRepeatable ? "..." : ""))
        }
        return (language == .ko ? "사용법: " : "usage: ") + parts.joined(separator: " ")
    }

    /// The whole help page of the command at `path`.
    public func help(for path: [String]) -> String {
        let command = command(at: path)
        var lines: [String] = []
        lines.append(command.abstract.text(in: language))
        lines.append("")
        lines.append(usageLine(for: path))
        if command.hasSubcommands {
            lines.append("")
            lines.append(language == .ko ? "명령:" : "Commands:")
            let width = command.subcommands.map { $0.name.count }.max() ?? 0
            for sub in command.subcommands {
                lines.append("  " + pad(sub.name, width) + "  " + sub.abstract.text(in: language))
            }
        }
        if !command.positionals.isEmpty {
            lines.append("")
            lines.append(language == .ko ? "인수:" : "Arguments:")
            let width = command.positionals.map { $0.name.count }.max() ?? 0
            for positional in command.positionals {
                lines.append("  " + pad(positional.name, width) + "  " + positional.help.text(in: language))
            }
        }
        let options = command.options + globalOptions
        lines.append("")
        lines.append(language == .ko ? "옵션:" : "Options:")
        let labels = options.map(label)
        let width = labels.map { $0.count }.max() ?? 0
        for (option, text) in zip(options, labels) {
            lines.append("  " + pad(text, width) + "  " + option.help.text(in: language))
        }
        if let discussion = command.discussion {
            lines.append("")
            lines.append(discussion.text(in: language))
        }
        if command.hasSubcommands {
            lines.append("")
            let name = ([program] + path + ["COMMAND"]).joined(separator: " ")
            lines.append(language == .ko ? "자세한 내용: \(name) --help" : "More: \(name) --help")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func label(_ option: Option) -> String {
        var text = option.short.map { "-\($0), " } ?? "    "
        text += "--\(option.name)"
        if let valueName = option.valueName { text += " \(valueName)" }
        return text
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
