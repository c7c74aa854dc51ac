import CommandLineKit
import MemoCore

/// The fish script: one `complete` line per subcommand, option and value
/// word, each shown with its help text, guarded by a function that tells which
/// command the words typed so far name.
enum FishCompletion {
    static func script(for tree: CompletionTree) -> String {
        var lines: [String] = []
        for node in tree.nodes {
            let condition = "-n \(quoted("__memoapp_at \(quoted(node.pathText))"))"
            for sub in node.command.subcommands {
                lines.append("complete -c memoapp \(condition) -a \(quoted(sub.name)) -d \(describe(sub.abstract, tree))")
            }
            for positional in node.command.positionals {
                switch CompletionTree.words(for: positional.kind) {
                case nil:
                    lines.append("complete -c memoapp \(condition) -F")
                case let words? where !words.isEmpty:
                    let list = quoted(words.joined(separator: " "))
                    lines.append("complete -c memoapp \(condition) -a \(list) -d \(describe(positional.help, tree))")
                default:
                    break
                }
            }
            for option in node.command.options {
                lines.append("complete -c memoapp \(condition) \(optionFlags(option, tree))")
            }
        }
        for option in GlobalOptions.declarations.map(\.option) {
            lines.append("complete -c memoapp \(optionFlags(option, tree))")
        }
        let paths = tree.nodes.map { quoted($0.pathText) }.joined(separator: " ")
        return """
            # memoapp completion for fish
            set -g __memoapp_paths \(paths)

            # The command path the words typed so far name ("todo add"); words
            # that extend no known path (option values, text) are passed over.
            function __memoapp_path
                set -l path ""
                for word in (commandline -opc)[2..-1]
                    string match -q -- '-*' $word; and continue
                    set -l candidate (string trim -- "$path $word")
                    contains -- $candidate $__memoapp_paths; and set path $candidate
                end
                echo $path
            end

            function __memoapp_at
                test (__memoapp_path) = "$argv[1]"
            end

            complete -c memoapp -f
            \(lines.joined(separator: "\n"))

            """
    }

    /// `-l NAME [-s S] [-x -a 'WORDS' | -r -F | -x] -d 'HELP'`.
    private static func optionFlags(_ option: Option, _ tree: CompletionTree) -> String {
        var flags = "-l \(option.name)"
        if let short = option.short { flags += " -s \(short)" }
        if option.takesValue {
            switch CompletionTree.words(for: option.kind) {
            case nil: flags += " -r -F"
            case let words? where !words.isEmpty: flags += " -x -a \(quoted(words.joined(separator: " ")))"
            default: flags += " -x"
            }
        }
        return flags + " -d \(describe(option.help, tree))"
    }

    private static func describe(_ text: Localized, _ tree: CompletionTree) -> String {
        quoted(text.text(in: tree.language))
    }

    /// A fish single-quoted string: only `\` and `'` need escaping there.
    static func quoted(_ text: String) -> String {
        var out = "'"
        for character in text {
            if character == "\\" || character == "'" { out.append("\\") }
            out.append(character)
        }
        return out + "'"
    }
}
