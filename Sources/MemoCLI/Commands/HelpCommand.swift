import CommandLineKit
import MemoCore

/// `memoapp help [COMMAND…]`: the same page as `memoapp COMMAND… --help`.
enum HelpCommand {
    static let commandPath = Arguments<String>("COMMAND", minimum: 0,
                                               help: Localized(en: "the command, e.g. 'todo add'", ko: "명령 (예: 'todo add')"))

    static func make() -> Command {
        Command(
            "help",
            abstract: Localized(en: "show help for a command", ko: "명령의 도움말 보기"),
            positionals: [commandPath],
            access: .alwaysRuns,
            body: { context, arguments in
                var renderer = HelpRenderer(root: RootCommand.make(), language: context.language)
                renderer.width = context.tableWidth
                let path = arguments[commandPath]
                var command = renderer.root
                for (depth, name) in path.enumerated() {
                    guard let sub = command.subcommand(named: name) else {
                        throw UsageError(Localized(en: "unknown command '\(path[...depth].joined(separator: " "))'",
                                                   ko: "알 수 없는 명령 '\(path[...depth].joined(separator: " "))'"),
                                         path: ["help"])
                    }
                    command = sub
                }
                try context.write(TerminalText(renderer.help(for: path)))
            })
    }
}
