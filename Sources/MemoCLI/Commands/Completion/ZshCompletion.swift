import CommandLineKit
import MemoCore

/// The native zsh script: the same walk down the command tree as bash's,
/// but every subcommand, option and id offered with its description
/// (`_describe`), folders and files through `_files`, as zsh users expect.
enum ZshCompletion {
    static func script(for tree: CompletionTree) -> String {
        var knownPaths: [String] = []
        var positionalCases: [String] = []
        var optionCases: [String] = []
        var valueCases: [String] = []
        let root = tree.nodes.first { $0.path.isEmpty }?.command
        for node in tree.nodes {
            knownPaths.append(quoted(node.pathText))
            var actions: [String] = []
            var subcommands = node.command.subcommands
            // `memoapp help <TAB>` offers the commands help can describe.
            if node.path == ["help"] { subcommands += root?.subcommands ?? [] }
            if !subcommands.isEmpty {
                let entries = subcommands.map { quoted($0.name + ":" + oneLine($0.abstract.text(in: tree.language))) }
                actions.append("entries=(\(entries.joined(separator: " "))); _describe -t commands command entries")
            }
            for positional in node.command.positionals {
                if let action = action(CompletionValue.of(positional, at: node.path)) { actions.append(action) }
            }
            if !actions.isEmpty {
                positionalCases.append("        \(quoted(node.pathText))) \(actions.joined(separator: "; ")) ;;")
            }
            let options = node.options.flatMap { option -> [String] in
                let help = oneLine(option.help.text(in: tree.language))
                return ["--\(option.name):\(help)"] + (option.short.map { ["-\($0):\(help)"] } ?? [])
            }
            optionCases.append("        \(quoted(node.pathText))) entries=(\(options.map(quoted).joined(separator: " "))) ;;")
            for option in node.command.options where option.takesValue {
                let value = CompletionValue.of(option, at: node.path)
                valueCases.append("        \(quoted(node.pathText + "|--" + option.name))) \(action(value) ?? ":") ;;")
            }
        }
        for option in GlobalOptions.declarations.map(\.option) where option.takesValue {
            valueCases.append("        *\(quoted("|--" + option.name))) \(action(CompletionValue.of(option, at: [])) ?? ":") ;;")
        }
        return """
            #compdef memoapp
            # memoapp completion for zsh (native: subcommands, options and ids with
            # their descriptions). Load with `source <(memoapp completion zsh)` after
            # compinit, or save as _memoapp in a folder of $fpath.

            _memoapp() {
                local at="" candidate word index current="${words[CURRENT]}" previous="${words[CURRENT-1]}"
                for ((index = 2; index < CURRENT; index++)); do
                    word="${words[index]}"
                    [[ "$word" == -* ]] && continue
                    candidate="${at:+$at }$word"
                    _memoapp_known "$candidate" && at="$candidate"
                done
                if [[ "$previous" == --* ]] && _memoapp_value "$at|$previous"; then
                    return 0
                fi
                if [[ "$current" != -* ]] && _memoapp_positional "$at"; then
                    return 0
                fi
                _memoapp_options "$at"
            }

            _memoapp_known() {
                case "$1" in
                    \(knownPaths.joined(separator: "|"))) return 0 ;;
                esac
                return 1
            }

            # The data home's ids (with titles) or tags of kind $1, through the
            # same memoapp and --home as the line being typed.
            _memoapp_data() {
                local program="${words[1]}" line word index
                local -a home entries
                for ((index = 2; index < CURRENT; index++)); do
                    case "${words[index]}" in
                        --home) home=(--home "${words[index + 1]}") ;;
                        --home=*) home=("${words[index]}") ;;
                    esac
                done
                program="${program/#\\~/$HOME}"
                (( ${#home} == 2 )) && home[2]="${home[2]/#\\~/$HOME}"
                for line in "${(@f)$("$program" __complete "$1" "${home[@]}" 2>/dev/null)}"; do
                    [[ -z "$line" ]] && continue
                    word="${line%%$'\\t'*}"
                    if [[ "$line" == *$'\\t'* ]]; then
                        entries+=("${word//:/\\\\:}:${line#*$'\\t'}")
                    else
                        entries+=("${word//:/\\\\:}")
                    fi
                done
                _describe -t values value entries
            }

            # Offers what may follow the command $1 that is not an option; fails
            # when nothing may.
            _memoapp_positional() {
                local -a entries
                case "$1" in
            \(positionalCases.joined(separator: "\n"))
                    *) return 1 ;;
                esac
                return 0
            }

            _memoapp_options() {
                local -a entries
                case "$1" in
            \(optionCases.joined(separator: "\n"))
                esac
                _describe -t options option entries
            }

            # Offers the value of the option in $1 ("path|--option"); fails for
            # an option that takes none.
            _memoapp_value() {
                case "$1" in
            \(valueCases.joined(separator: "\n"))
                    *) return 1 ;;
                esac
                return 0
            }

            if [[ "$funcstack[1]" == _memoapp ]]; then
                _memoapp "$@"
            else
                compdef _memoapp memoapp
            fi

            """
    }

    /// The zsh that offers a value's candidates; nil when nothing can be
    /// offered (free text, a number).
    private static func action(_ value: CompletionValue) -> String? {
        switch value {
        case let .words(words): return "compadd -- \(words.map(quoted).joined(separator: " "))"
        case .files: return "_files"
        case .folders: return "_files -/"
        case let .data(source): return "_memoapp_data \(source.rawValue)"
        case .nothing: return nil
        }
    }

    /// A zsh single-quoted word: a quote inside is closed, escaped and reopened.
    static func quoted(_ text: String) -> String {
        var out = "'"
        for character in text {
            out += character == "'" ? "'\\''" : String(character)
        }
        return out + "'"
    }

    /// Help text on one line (a description is one line in zsh's menu).
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
