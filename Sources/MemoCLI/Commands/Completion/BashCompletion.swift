import CommandLineKit
/// The bash script (zsh loads it through bashcompinit). It walks the words
/// typed so far down the command tree, then offers that command's
/// subcommands, options and positional words; after an option that takes a
/// value it offers the value's choices, or file names for a path.
enum BashCompletion {
    static func script(for tree: CompletionTree) -> String {
        var wordCases: [String] = []
        var valueCases: [String] = []
        var fileCommands: [String] = []
        // `memoapp help <TAB>` offers the commands help can describe.
        let commandNames = tree.nodes.first { $0.path.isEmpty }?.command.subcommands.map(\.name) ?? []
        for node in tree.nodes {
            var positionalWords = node.command.positionals.flatMap { CompletionTree.words(for: $0.kind) ?? [] }
            if node.path == ["help"] { positionalWords += commandNames }
            let words = node.command.subcommands.map(\.name) + positionalWords + node.options.map { "--\($0.name)" }
            wordCases.append("        \"\(node.pathText)\") words=\"\(words.joined(separator: " "))\" ;;")
            if node.command.positionals.contains(where: { CompletionTree.words(for: $0.kind) == nil }) {
                fileCommands.append("\"\(node.pathText)\"")
            }
            for option in node.command.options where option.takesValue {
                valueCases.append("        \"\(node.pathText)|--\(option.name)\") \(valueAction(option.kind)) ;;")
            }
        }
        // Global options take the same values wherever they appear.
        for option in GlobalOptions.declarations.map(\.option) where option.takesValue {
            valueCases.append("        *\"|--\(option.name)\") \(valueAction(option.kind)) ;;")
        }
        return """
            # memoapp completion for bash (and zsh through bashcompinit)
            _memoapp() {
                local current="${COMP_WORDS[COMP_CWORD]}" previous="" path="" candidate words word index
                (( COMP_CWORD > 1 )) && previous="${COMP_WORDS[COMP_CWORD - 1]}"
                for ((index = 1; index < COMP_CWORD; index++)); do
                    word="${COMP_WORDS[index]}"
                    [[ "$word" == -* ]] && continue
                    candidate="${path:+$path }$word"
                    _memoapp_words "$candidate" >/dev/null && path="$candidate"
                done
                if [[ "$previous" == --* ]] && _memoapp_value "$path|$previous" "$current"; then
                    return
                fi
                words="$(_memoapp_words "$path")"
                COMPREPLY=($(compgen -W "$words" -- "$current"))
                if [[ "$current" != -* ]] && _memoapp_takes_files "$path"; then
                    COMPREPLY+=($(compgen -f -- "$current"))
                    compopt -o filenames 2>/dev/null
                fi
            }
            # Succeeds, with COMPREPLY set, when $1 ("path|--option") takes a value.
            _memoapp_value() {
                case "$1" in
            \(valueCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                return 0
            }
            _memoapp_takes_files() {
                \(fileCommands.isEmpty ? "" : "case \"$1\" in \(fileCommands.joined(separator: "|"))) return 0 ;; esac")
                return 1
            }
            _memoapp_words() {
                local words
                case "$1" in
            \(wordCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                printf '%s\\n' "$words"
            }
            complete -F _memoapp memoapp

            """
    }

    /// What bash does for an option's value: its choices, file names, or
    /// nothing (free text or a number, which no list can guess).
    private static func valueAction(_ kind: ValueKind) -> String {
        switch CompletionTree.words(for: kind) {
        case nil: return "COMPREPLY=($(compgen -f -- \"$2\")); compopt -o filenames 2>/dev/null"
        case let words?: return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$2\"))"
        }
    }
}
