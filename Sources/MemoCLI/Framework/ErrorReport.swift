import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// The one place that decides, for any error, what the command line does with
/// it: the exit status, the words (the application layer's message and this
/// front end's hint), and what goes to stderr.
struct ErrorReport {
    let kind: ErrorKind
    let message: String
    let usagePath: [String]?

    init(_ error: Error, language: Language) {
        if let failure = error as? UsageError {
            kind = .usage
            message = failure.message.text(in: language)
            usagePath = failure.path
            return
        }
        let failure = Failure(error)
        kind = failure.kind
        message = failure.message.text(in: language)
            + (failure.hint.flatMap(CommandHints.text(for:))?.text(in: language) ?? "")
        usagePath = nil
    }

    var exitCode: Int32 { ErrorReport.exitCode(for: kind) }

    /// The process exit status for each kind (sysexits.h numbers where they exist).
    static func exitCode(for kind: ErrorKind) -> Int32 {
        switch kind {
        case .internalFailure, .unauthorized, .tooLarge: return 1
        case .onboardingRequired: return 3
        case .notFound: return 4
        case .invalidState, .duplicate: return 5
        case .usage: return 64
        case .badInput: return 65
        case .noInput: return 66
        case .storage: return 74
        case .interrupted: return 130
        }
    }

    /// What stderr shows: one JSON object, or `memoapp: …` lines with usage help.
    func render(isJSON: Bool, root: Command, language: Language) -> String {
        if isJSON {
            return ErrorEnvelope.json(code: kind.code, message: message).serialized + "\n"
        }
        var text = "memoapp: \(message)\n"
        if let usagePath {
            let help = HelpRenderer(root: root, language: language)
            text += help.usageLine(for: usagePath) + "\n"
            let name = (["memoapp"] + usagePath).joined(separator: " ")
            text += language == .ko ? "'\(name) --help'를 참고하세요\n" : "See '\(name) --help'\n"
        }
        return text
    }
}
