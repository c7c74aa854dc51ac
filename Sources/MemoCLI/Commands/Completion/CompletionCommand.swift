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
                    + "  zsh:  source <(memoapp completion zsh)   (after compinit)\n"
                    + "  fish: memoapp completion fish | source\n"
                    + "or save it where the shell looks, e.g. ~/.config/fish/completions/memoapp.fish, or as _memoapp "
                    + "in a folder of zsh's $fpath. Ids complete with their titles and tags with the tags in use, "
                    + "read from the data home (the --home on the line).",
                ko: "현재 셸에 적용:\n"
                    + "  bash: source <(memoapp completion bash)\n"
                    + "  zsh:  source <(memoapp completion zsh)   (compinit 다음에)\n"
                    + "  fish: memoapp completion fish | source\n"
                    + "또는 셸이 찾는 곳에 저장, 예: ~/.config/fish/completions/memoapp.fish, zsh는 $fpath의 폴더에 _memoapp으로. "
                    + "id는 제목과 함께, 태그는 쓰고 있는 태그로 완성하며 데이터 폴더(입력 줄의 --home)에서 읽습니다."),
            body: { context, arguments in
                let tree = CompletionTree(root: RootCommand.make(), language: context.language)
                switch arguments[shell] {
                case "fish": try context.writeDocument(FishCompletion.script(for: tree))
                case "zsh": try context.writeDocument(ZshCompletion.script(for: tree))
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
}
