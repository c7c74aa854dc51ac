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
        case .internalFailure, .tooLarge: return 1
        case .onboardingRequired: return 3
        case .notFound: return 4
        case .invalidState, .duplicate: return 5
        case .usage: return 64
        case .badInput: return 65
        case .noInput: return 66
        case .unavailable: return 69
        case .storage: return 74
        case .unauthorized: return 77
        case .interrupted: return 130
        }
    }

    /// The failure a refused write to stdout or stderr is reported as.
    static func outputFailure(_ failure: StreamWriteFailure) -> MemoError {
        let reason = failure.reason
        switch failure.stream {
        case .output:
            return MemoError(.storage, en: "cannot write to standard output: \(reason); the output is incomplete",
                             ko: "표준 출력에 쓸 수 없습니다: \(reason). 출력이 완전하지 않습니다")
        case .error:
            return MemoError(.storage, en: "cannot write to standard error: \(reason)",
                             ko: "표준 오류에 쓸 수 없습니다: \(reason)")
        }
    }

    /// What stderr shows: one JSON object, or `memoapp: …` lines with usage help.
    /// The message is one line whatever it quotes (a file name, a title): its
    /// control characters and line breaks are shown, not obeyed.
    func render(isJSON: Bool, root: Command, language: Language) -> String {
        if isJSON {
            return ErrorEnvelope.json(code: kind.code, message: message).serialized + "\n"
        }
        var text = "memoapp: " + TerminalText(line: message).rendered + "\n"
        if let usagePath {
            let help = HelpRenderer(root: root, language: language)
            text += help.usageLine(for: usagePath) + "\n"
            let name = (["memoapp"] + usagePath).joined(separator: " ")
            text += language == .ko ? "'\(name) --help'를 참고하세요\n" : "See '\(name) --help'\n"
        }
        return text
    }
}
