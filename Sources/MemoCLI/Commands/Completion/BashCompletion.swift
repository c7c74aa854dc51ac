import CommandLineKit
/// The bash script. It walks the words typed so far down the command tree,
/// then offers that command's subcommands and positional words (choices,
/// files, folders, or the ids and tags `memoapp __complete` reads from the
/// data home, with the --home typed on the line); options when the word
/// begins with `-` or nothing else fits; after an option that takes a value,
/// that value's words.
enum BashCompletion {
    static func script(for tree: CompletionTree) -> String {
        var wordCases: [String] = []
        var positionalCases: [String] = []
        var positionalPaths: [String] = []
        var optionCases: [String] = []
        var valueCases: [String] = []
        // `memoapp help <TAB>` offers the commands help can describe.
        let commandNames = tree.nodes.first { $0.path.isEmpty }?.command.subcommands.map(\.name) ?? []
        for node in tree.nodes {
            var words = node.command.subcommands.map(\.name)
            if node.path == ["help"] { words += commandNames }
            var actions: [String] = []
            for positional in node.command.positionals {
                let value = CompletionValue.of(positional, at: node.path)
                if case let .words(choices) = value { words += choices } else if let action = action(value, word: "$2") {
                    actions.append(action)
                }
            }
            wordCases.append("        \"\(node.pathText)\") words=\"\(words.joined(separator: " "))\" ;;")
            if !actions.isEmpty {
                positionalPaths.append("\"\(node.pathText)\"")
                positionalCases.append("        \"\(node.pathText)\") \(actions.joined(separator: "; ")) ;;")
            }
            optionCases.append("        \"\(node.pathText)\") words=\"\(node.options.map { "--\($0.name)" }.joined(separator: " "))\" ;;")
            for option in node.command.options where option.takesValue {
                let value = CompletionValue.of(option, at: node.path)
                valueCases.append("        \"\(node.pathText)|--\(option.name)\") \(action(value, word: "$2") ?? ":") ;;")
            }
        }
        // Global options take the same values wherever they appear.
        for option in GlobalOptions.declarations.map(\.option) where option.takesValue {
            let value = CompletionValue.of(option, at: [])
            valueCases.append("        *\"|--\(option.name)\") \(action(value, word: "$2") ?? ":") ;;")
        }
        return """
            # memoapp completion for bash
            _memoapp() {
                local current="${COMP_WORDS[COMP_CWORD]}" previous="" path="" candidate words word index
                COMPREPLY=()
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
                if [[ "$current" != -* ]]; then
                    words="$(_memoapp_words "$path")"
                    COMPREPLY=($(compgen -W "$words" -- "$current"))
                    _memoapp_positional "$path" "$current"
                    [[ -n "$words" ]] || _memoapp_has_positional "$path" && return
                fi
                words="$(_memoapp_options "$path")"
                COMPREPLY=($(compgen -W "$words" -- "$current"))
            }
            # The data home's ids or tags of kind $1 that start with $2, through
            # the same memoapp and --home as the line being typed.
            _memoapp_data() {
                local program="${COMP_WORDS[0]}" home=() index word line
                [[ "$program" == "~/"* ]] && program="$HOME/${program#\\~/}"
                for ((index = 1; index < COMP_CWORD; index++)); do
                    word="${COMP_WORDS[index]}"
                    case "$word" in
                    --home) home=(--home "${COMP_WORDS[index + 1]}") ;;
                    --home=*) home=("$word") ;;
                    esac
                done
                [[ "${home[1]}" == "~/"* ]] && home[1]="$HOME/${home[1]#\\~/}"
                words=()
                while IFS=$'\\t' read -r line _; do
                    [[ "$line" == "$2"* ]] && COMPREPLY+=("$line")
                done < <("$program" __complete "$1" "${home[@]}" 2>/dev/null)
            }
            # Adds what a positional of the command $1 may be, if it is no list of words.
            _memoapp_positional() {
                case "$1" in
            \(positionalCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                return 0
            }
            _memoapp_has_positional() {
                \(positionalPaths.isEmpty ? "" : "case \"$1\" in \(positionalPaths.joined(separator: "|"))) return 0 ;; esac")
                return 1
            }
            # Succeeds, with COMPREPLY set, when $1 ("path|--option") takes a value.
            _memoapp_value() {
                case "$1" in
            \(valueCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                return 0
            }
            _memoapp_words() {
                local words
                case "$1" in
            \(wordCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                printf '%s\\n' "$words"
            }
            _memoapp_options() {
                local words
                case "$1" in
            \(optionCases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                printf '%s\\n' "$words"
            }
            complete -F _memoapp memoapp

            """
    }

    /// The bash that adds a value's candidates for the word in `word`; nil
    /// when nothing can be offered (free text, a number).
    private static func action(_ value: CompletionValue, word: String) -> String? {
        switch value {
        case let .words(words): return "COMPREPLY+=($(compgen -W \"\(words.joined(separator: " "))\" -- \"\(word)\"))"
        case .files: return "COMPREPLY+=($(compgen -f -- \"\(word)\")); compopt -o filenames 2>/dev/null"
        case .folders: return "COMPREPLY+=($(compgen -d -- \"\(word)\")); compopt -o filenames 2>/dev/null"
        case let .data(source): return "_memoapp_data \(source.rawValue) \"\(word)\""
        case .nothing: return nil
        }
    }
}
