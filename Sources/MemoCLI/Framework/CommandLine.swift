import CommandLineKit
import MemoCore

/// memoapp's commands are CommandLineKit's, with the command line's context.
public typealias Command = CommandLineKit.Command<CommandContext>
public typealias Parser = CommandLineKit.Parser<CommandContext>
public typealias Invocation = CommandLineKit.Invocation<CommandContext>
public typealias HelpRenderer = CommandLineKit.HelpRenderer<CommandContext>

extension HelpRenderer {
    /// memoapp's help, with its global options.
    init(root: Command, language: Language) {
        self.init(program: "memoapp", root: root, globalOptions: GlobalOptions.declarations, language: language)
    }
}

extension Parser {
    init(root: Command) {
        self.init(root: root, globalOptions: GlobalOptions.declarations)
    }
}
