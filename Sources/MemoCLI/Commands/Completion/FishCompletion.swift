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
                switch CompletionValue.of(positional, at: node.path) {
                case .files:
                    lines.append("complete -c memoapp \(condition) -F")
                case .folders:
                    lines.append("complete -c memoapp \(condition) -a '(__fish_complete_directories)'")
                case let .words(words) where !words.isEmpty:
                    let list = quoted(words.joined(separator: " "))
                    lines.append("complete -c memoapp \(condition) -a \(list) -d \(describe(positional.help, tree))")
                case let .data(source):
                    // Each line is "ID<TAB>title": fish shows the title beside the id.
                    lines.append("complete -c memoapp \(condition) -k -a '(__memoapp_data \(source.rawValue))'")
                default:
                    break
                }
            }
            for option in node.command.options {
                lines.append("complete -c memoapp \(condition) \(optionFlags(option, at: node.path, tree))")
            }
        }
        for option in GlobalOptions.declarations.map(\.option) {
            lines.append("complete -c memoapp \(optionFlags(option, at: [], tree))")
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

            # The data home's ids or tags of kind $argv[1], through the same
            # memoapp and --home as the line being typed.
            function __memoapp_data
                set -l words (commandline -opc)
                set -l home
                for index in (seq 2 (count $words))
                    switch $words[$index]
                        case --home
                            test $index -lt (count $words); and set home --home $words[(math $index + 1)]
                        case '--home=*'
                            set home $words[$index]
                    end
                end
                command $words[1] __complete $argv[1] $home 2>/dev/null
            end

            complete -c memoapp -f
            \(lines.joined(separator: "\n"))

            """
    }

    /// `-l NAME [-s S] [-x -a 'WORDS' | -r -F | -x] -d 'HELP'`.
    private static func optionFlags(_ option: Option, at path: [String], _ tree: CompletionTree) -> String {
        var flags = "-l \(option.name)"
        if let short = option.short { flags += " -s \(short)" }
        if option.takesValue {
            switch CompletionValue.of(option, at: path) {
            case .files: flags += " -r -F"
            case .folders: flags += " -x -a '(__fish_complete_directories)'"
            case let .words(words) where !words.isEmpty: flags += " -x -a \(quoted(words.joined(separator: " ")))"
            case let .data(source): flags += " -x -k -a '(__memoapp_data \(source.rawValue))'"
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
