import MemoCore

/// `memoapp completion bash`: a completion script generated from the command
/// declarations, so it knows every command and option this build has.
enum CompletionCommand {
    static func make() -> Command {
        Command(
            "completion",
            abstract: Localized(en: "print a shell completion script", ko: "셸 자동 완성 스크립트 출력"),
            positionals: [Positional("SHELL", kind: .choice(["bash", "zsh"]),
                                     help: Localized(en: "bash or zsh", ko: "bash 또는 zsh"))],
            access: .alwaysRuns,
            discussion: Localized(
                en: "Load it for this shell: source <(memoapp completion bash)\n"
                    + "zsh: autoload -U +X bashcompinit && bashcompinit && source <(memoapp completion zsh)",
                ko: "현재 셸에 적용: source <(memoapp completion bash)\n"
                    + "zsh: autoload -U +X bashcompinit && bashcompinit && source <(memoapp completion zsh)"),
            body: { context, _ in
                context.write(bashScript(for: RootCommand.make()))
            })
    }

    /// A bash function that walks the words typed so far down the command tree
    /// and offers that command's subcommands and options.
    static func bashScript(for root: Command) -> String {
        var cases: [String] = []
        func visit(_ command: Command, path: [String]) {
            let words = command.subcommands.map(\.name)
                + (command.options + GlobalOptions.declarations).map { "--\($0.name)" }
            cases.append("    \"\(path.joined(separator: " "))\") words=\"\(words.joined(separator: " "))\" ;;")
            for sub in command.subcommands { visit(sub, path: path + [sub.name]) }
        }
        visit(root, path: [])
        return """
            # memoapp completion for bash (and zsh through bashcompinit)
            _memoapp() {
                local current="${COMP_WORDS[COMP_CWORD]}" path="" candidate words word index
                for ((index = 1; index < COMP_CWORD; index++)); do
                    word="${COMP_WORDS[index]}"
                    [[ "$word" == -* ]] && continue
                    candidate="${path:+$path }$word"
                    _memoapp_words "$candidate" >/dev/null && path="$candidate"
                done
                words="$(_memoapp_words "$path")"
                COMPREPLY=($(compgen -W "$words" -- "$current"))
            }
            _memoapp_words() {
                local words
                case "$1" in
            \(cases.joined(separator: "\n"))
                *) return 1 ;;
                esac
                printf '%s\\n' "$words"
            }
            complete -F _memoapp memoapp

            """
    }
}
