import MemoCore
import MemoKit

/// `memoapp __complete SOURCE [--home DIR]`: the words the completion scripts
/// ask the data for (see `CompletionCandidates.Source`), one a line, as
/// `WORD<TAB>DESCRIPTION` or `WORD`.
///
/// Not a declared command, so it is in no help and no completion. It is not
/// behind the gate (it checks onboarding itself, reading only), and it never
/// fails: whatever goes wrong, it prints nothing and exits 0, since anything
/// it said would land in the user's command line at a Tab press.
enum CompleteCommand {
    static let name = "__complete"

    static func run(_ arguments: [String], environment: [String: String], streams: StandardStreams) -> Int32 {
        guard let request = parse(arguments),
              let home = try? DataHome.resolve(explicit: request.home, environment: environment) else { return 0 }
        let lines = CompletionCandidates.candidates(request.source, in: home).map(line)
        guard !lines.isEmpty else { return 0 }
        try? streams.writeOutput(lines.joined(separator: "\n") + "\n")
        return 0
    }

    /// The source asked for and the --home given, if any; nil for anything else.
    static func parse(_ arguments: [String]) -> (source: CompletionCandidates.Source, home: String?)? {
        var source: CompletionCandidates.Source?
        var home: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--home", index + 1 < arguments.count {
                home = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--home=") {
                home = String(argument.dropFirst("--home=".count))
            } else if source == nil, let named = CompletionCandidates.Source(rawValue: argument) {
                source = named
            } else {
                return nil
            }
            index += 1
        }
        return source.map { ($0, home) }
    }

    static func line(_ candidate: CompletionCandidates.Candidate) -> String {
        candidate.description.isEmpty ? candidate.word : candidate.word + "\t" + candidate.description
    }
}
