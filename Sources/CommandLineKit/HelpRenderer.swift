import MemoCore

/// Turns command declarations into `--help` text and usage lines, so help can
/// never drift from what the parser accepts.
public struct HelpRenderer<Context> {
    public let program: String
    public let root: Command<Context>
    public let globalOptions: [Option]
    public let language: Language
    /// Columns the help page is wrapped to (the terminal's width); nil: one
    /// line per entry, however long.
    public var width: Int?

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
        lines += hanging(command.abstract.text(in: language), indent: 0)
        lines.append("")
        lines += wrappedUsage(usageLine(for: path))
        if command.hasSubcommands {
            lines.append("")
            lines.append(language == .ko ? "명령:" : "Commands:")
            let width = command.subcommands.map { DisplayWidth.of($0.name) }.max() ?? 0
            for sub in command.subcommands {
                lines += row(sub.name, width, sub.abstract.text(in: language))
            }
        }
        if !command.positionals.isEmpty {
            lines.append("")
            lines.append(language == .ko ? "인수:" : "Arguments:")
            let width = command.positionals.map { DisplayWidth.of($0.name) }.max() ?? 0
            for positional in command.positionals {
                lines += row(positional.name, width, positional.help.text(in: language))
            }
        }
        let options = command.options + globalOptions
        lines.append("")
        lines.append(language == .ko ? "옵션:" : "Options:")
        let labels = options.map(label)
        let width = labels.map { DisplayWidth.of($0) }.max() ?? 0
        for (option, text) in zip(options, labels) {
            lines += row(text, width, option.help.text(in: language))
        }
        if let discussion = command.discussion {
            lines.append("")
            for line in discussion.text(in: language).split(separator: "\n", omittingEmptySubsequences: false) {
                let lead = line.prefix { $0 == " " }.count
                lines += hanging(String(line), indent: lead)
            }
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
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }

    /// `  name  description`, the description wrapped in its own column; on a
    /// terminal too narrow for two columns, under the name.
    private func row(_ name: String, _ nameWidth: Int, _ description: String) -> [String] {
        let head = "  " + pad(name, nameWidth) + "  "
        guard let width else { return [head + description] }
        let indent = DisplayWidth.of(head)
        if width - indent >= HelpRenderer.narrowestDescription {
            let parts = TextWrapping.lines(description, width: width - indent)
            return [head + parts[0]] + parts.dropFirst().map { String(repeating: " ", count: indent) + $0 }
        }
        let under = String(repeating: " ", count: 8)
        return ["  " + name] + TextWrapping.lines(description, width: width - under.count).map { under + $0 }
    }

    /// `text` wrapped to the width, lines after the first indented by
    /// `indent` columns (a usage line's continuation, a paragraph's own indent).
    private func hanging(_ text: String, indent: Int) -> [String] {
        guard let width, DisplayWidth.of(text) > width else { return [text] }
        let leading = String(text.prefix { $0 == " " })
        let wrapped = TextWrapping.lines(String(text.dropFirst(leading.count)), width: max(10, width - leading.count))
        let rest = wrapped.dropFirst().joined(separator: " ")
        let lead = String(repeating: " ", count: indent)
        let following = rest.isEmpty ? [] : TextWrapping.lines(rest, width: max(10, width - indent)).map { lead + $0 }
        return [leading + wrapped[0]] + following
    }

    /// The usage line wrapped between its parts, never inside `[--due WHEN]`,
    /// lines after the first indented by four.
    private func wrappedUsage(_ text: String) -> [String] {
        guard let width, DisplayWidth.of(text) > width else { return [text] }
        var groups: [String] = []
        var depth = 0
        for word in text.split(separator: " ") {
            if depth > 0, let last = groups.popLast() { groups.append(last + " " + word) } else { groups.append(String(word)) }
            depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
        }
        var lines: [String] = []
        var line = ""
        for group in groups {
            if !line.isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(group) > width {
                lines.append(line)
                line = "    " + group
            } else {
                line += (line.isEmpty ? "" : " ") + group
            }
        }
        return lines + [line]
    }

    /// The narrowest description column help keeps beside the names.
    static var narrowestDescription: Int { 24 }
}
