import MemoCore
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
        root.subcommands += extraCommands
        self.root = root
        self.environment = environment
        self.streams = streams
        self.clock = clock
    }

    /// Runs one command line (argv without the program name) and returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Parser(root: root).parse(arguments)
        } catch {
            // The flags are unknown when parsing failed; look for them by hand
            // so that the error still follows --json and --lang.
            // Both spellings the parser accepts (`--lang ko`, `--lang=ko`), and only
            // before `--`, where the parser would have read them.
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
            let context = CommandContext(globals: globals, environment: environment, streams: streams, clock: clock)
            return report(error, context: context)
        }
        let context = CommandContext(globals: invocation.globals, environment: environment,
                                     streams: streams, clock: clock)
        let help = HelpRenderer(root: root, language: context.language)
        if invocation.globals.wantsHelp {
            streams.writeOutput(help.help(for: invocation.path))
            return 0
        }
        if invocation.globals.wantsVersion {
            streams.writeOutput(context.isJSON
                ? JSON.object([("name", .string("memoapp")), ("version", .string(Version.current))]).serialized + "\n"
                : "memoapp \(Version.current)\n")
            return 0
        }
        do {
            let isGated = invocation.commands.dropFirst().allSatisfy { $0.access == .gated }
                && invocation.commands.count > 1
            if isGated, try !context.isOnboardingCompleted() {
                throw MemoError(.onboardingRequired,
                                en: "finish the onboarding first: run 'memoapp onboard'",
                                ko: "먼저 온보딩을 마치세요: 'memoapp onboard'를 실행하세요")
            }
            guard let body = invocation.command.body else {
                throw UsageError(Localized(en: "missing subcommand", ko: "하위 명령이 필요합니다"),
                                 path: invocation.path)
            }
            try body(context, invocation.arguments)
            context.flush()
            return context.exitStatus
        } catch {
            return report(error, context: context)
        }
    }

    private func report(_ error: Error, context: CommandContext) -> Int32 {
        let report = ErrorReport(error, language: context.language)
        if context.isJSON { context.discardOutput() }
        context.flush()
        streams.writeError(report.render(isJSON: context.isJSON, root: root, language: context.language))
        return report.exitCode
    }
}
