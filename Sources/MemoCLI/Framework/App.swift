import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
#if canImport(Glibc)
import Glibc
#endif

/// The whole command line: parse, pick the command, hold the onboarding gate,
/// run, and turn any error into its message and exit status.
public struct App {
    public let root: Command
    let environment: [String: String]
    let streams: StandardStreams
    let clock: WallClock

    /// memoapp as shipped. Tests may add commands (`extraCommands`) to check
    /// that the gate holds for commands it has never seen.
    public init(environment: [String: String], streams: StandardStreams = ProcessStreams(),
                clock: WallClock = SystemWallClock(), extraCommands: [Command] = []) {
        var root = RootCommand.make()
        root.append(subcommands: extraCommands)
        self.root = root
        self.environment = environment
        self.streams = streams
        self.clock = clock
    }

    /// Runs one command line given as the bytes of each argument (argv without
    /// the program name). An argument that is not UTF-8 is refused (exit 65)
    /// before anything runs: decoding would replace its bad bytes with U+FFFD,
    /// and a title or a path would be stored or used other than as typed.
    public func run(argumentBytes: [[UInt8]]) -> Int32 {
        var arguments: [String] = []
        for (index, bytes) in argumentBytes.enumerated() {
            guard let argument = String(validating: bytes, as: UTF8.self) else {
                let repaired = argumentBytes.map { String(decoding: $0, as: UTF8.self) }
                let error = MemoError(.badInput,
                                      en: "argument \(index + 1) is not UTF-8 text; nothing was changed",
                                      ko: "\(index + 1)번째 인수가 UTF-8 텍스트가 아닙니다. 아무것도 바꾸지 않았습니다")
                return report(error, context: fallbackContext(repaired))
            }
            arguments.append(argument)
        }
        return run(arguments)
    }

    /// Runs one command line (argv without the program name) and returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        // The completion scripts' hidden helper: before parsing, so it is no
        // command of the tree, and before anything that could touch the data home.
        if arguments.first == CompleteCommand.name {
            return CompleteCommand.run(Array(arguments.dropFirst()), environment: environment, streams: streams)
        }
        let invocation: Invocation
        do {
            invocation = try Parser(root: root).parse(arguments)
        } catch {
            return report(error, context: fallbackContext(arguments))
        }
        let context = CommandContext(globals: GlobalOptions(invocation.globals), environment: environment,
                                     streams: streams, clock: clock)
        context.undoDescription = UndoDescription.of(arguments)
        var help = HelpRenderer(root: root, language: context.language)
        // Wrapped to the terminal; in a pipe, only when COLUMNS asks.
        help.width = context.tableWidth
        do {
            if invocation.wantsHelp {
                try context.write(TerminalText(help.help(for: invocation.path)))
                try context.flush()
                return 0
            }
            if invocation.wantsVersion {
                try context.emit(json: WireFormat.version(Version.current), text: "memoapp \(Version.current)")
                try context.flush()
                return 0
            }
            try context.checkDataHome()
            let isGated = invocation.commands.dropFirst().allSatisfy { $0.access == .gated }
                && invocation.commands.count > 1
            if isGated { try OnboardingGate.check(context.workspace) }
            guard let body = invocation.command.body else {
                throw UsageError(Localized(en: "missing subcommand", ko: "하위 명령이 필요합니다"),
                                 path: invocation.path)
            }
            try body(context, invocation.arguments)
            try context.flush()
            return context.exitStatus
        } catch {
            return report(error, context: context)
        }
    }

    /// A context for an error met before the command line was parsed. The
    /// flags are unknown then; look for them by hand so that the error still
    /// follows --json and --lang. Both spellings the parser accepts (`--lang ko`,
    /// `--lang=ko`), and only before `--`, where the parser would have read them.
    private func fallbackContext(_ arguments: [String]) -> CommandContext {
        var globals = GlobalOptions()
        let options = Array(arguments.prefix { $0 != "--" })
        globals.isJSON = options.contains("--json")
        for (index, token) in options.enumerated() {
            if token.hasPrefix("--lang=") {
                globals.language = String(token.dropFirst("--lang=".count))
            } else if token == "--lang", index + 1 < options.count {
                globals.language = options[index + 1]
            }
        }
        return CommandContext(globals: globals, environment: environment, streams: streams, clock: clock)
    }

    /// Exit status of a process SIGPIPE ended, as a shell shows it (128 + 13):
    /// what `memoapp todo list | head -1` ends with when SIGPIPE is ignored too.
    static let brokenPipeStatus: Int32 = 141

    private func report(_ error: Error, context: CommandContext) -> Int32 {
        if let failure = error as? StreamWriteFailure { return report(failure, context: context) }
        let report = ErrorReport(error, language: context.language)
        if context.isJSON { context.discardOutput() }
        do {
            try context.flush()
            try context.writeReport(report.render(isJSON: context.isJSON, root: root, language: context.language))
        } catch let failure as StreamWriteFailure {
            return self.report(failure, context: context)
        } catch {}
        return report.exitCode
    }

    /// A write to stdout or stderr failed: a reader that went away ends the
    /// process quietly (141, as SIGPIPE would); anything else is a storage
    /// failure (74) said on stderr, when stderr itself still works. Buffered
    /// output is dropped: it could only fail again, or come after the message.
    private func report(_ failure: StreamWriteFailure, context: CommandContext) -> Int32 {
        context.discardOutput()
        if failure.isBrokenPipe { return App.brokenPipeStatus }
        let report = ErrorReport(ErrorReport.outputFailure(failure), language: context.language)
        if failure.stream == .output {
            try? context.writeReport(report.render(isJSON: context.isJSON, root: root, language: context.language))
        }
        return report.exitCode
    }
}
