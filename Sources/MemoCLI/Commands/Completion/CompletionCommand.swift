import CommandLineKit
import MemoCore

/// `memoapp completion bash|zsh|fish`: a completion script generated from the
/// command declarations, so it knows every command, option and value word
/// this build has, and cannot drift from `--help`.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let shell = Argument<String>("SHELL", kind: .choice(shells), help: Localized(en: "bash, zsh or fish",
                                                                                         ko: "bash, zsh 또는 fish"))

    static func make() -> Command {
        Command(
            "completion",
            abstract: Localized(en: "print a shell completion script", ko: "셸 자동 완성 스크립트 출력"),
            positionals: [shell],
            access: .alwaysRuns,
            discussion: Localized(
                en: "Load it for this shell:\n"
                    + "  bash: source <(memoapp completion bash)\n"
                    + "  zsh:  autoload -U +X bashcompinit && bashcompinit && source <(memoapp completion zsh)\n"
                    + "  fish: memoapp completion fish | source\n"
                    + "or save it where the shell looks, e.g. ~/.config/fish/completions/memoapp.fish.",
                ko: "현재 셸에 적용:\n"
                    + "  bash: source <(memoapp completion bash)\n"
                    + "  zsh:  autoload -U +X bashcompinit && bashcompinit && source <(memoapp completion zsh)\n"
                    + "  fish: memoapp completion fish | source\n"
                    + "또는 셸이 찾는 곳에 저장, 예: ~/.config/fish/completions/memoapp.fish"),
            body: { context, arguments in
                let tree = CompletionTree(root: RootCommand.make(), language: context.language)
                switch arguments[shell] {
                case "fish": try context.writeDocument(FishCompletion.script(for: tree))
                default: try context.writeDocument(BashCompletion.script(for: tree))
                }
            })
    }
}

/// The command tree flattened for script generators: every command path with
/// what may follow it there.
struct CompletionTree {
    struct Node {
        /// Words from the root, e.g. ["todo", "add"]; empty for `memoapp` itself.
        let path: [String]
        let command: Command
        /// The command's own options, then the global ones.
        let options: [Option]

        var pathText: String { path.joined(separator: " ") }
    }

    let nodes: [Node]
    let language: Language

    init(root: Command, language: Language) {
        var nodes: [Node] = []
        func visit(_ command: Command, path: [String]) {
            nodes.append(Node(path: path, command: command, options: command.options + GlobalOptions.declarations.map(\.option)))
            for sub in command.subcommands { visit(sub, path: path + [sub.name]) }
        }
        visit(root, path: [])
        self.nodes = nodes
        self.language = language
    }

    /// The words a positional of this kind completes to, nil when it names a file.
    static func words(for kind: ValueKind) -> [String]? {
        switch kind {
        case let .choice(words): return words
        case .path: return nil
        case .text, .integer: return []
        }
    }
}
