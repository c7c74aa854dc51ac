import MemoCore
import SQLite

/// The one place that decides, for any error, its code word, its message, the
/// exit status and what goes to stderr.
struct ErrorReport {
    let kind: ErrorKind
    let message: String
    let usagePath: [String]?

    init(_ error: Error, language: Language) {
        switch error {
        case let failure as MemoError:
            kind = failure.kind
            message = failure.message.text(in: language)
            usagePath = nil
        case let failure as UsageError:
            kind = .usage
            message = failure.message.text(in: language)
            usagePath = failure.path
        case let failure as SQLiteError:
            kind = failure.kind
            let prefix = language == .ko ? "저장소 오류" : "storage failure"
            message = "\(prefix): \(failure.message) [\(failure.codeName)]"
            usagePath = nil
        default:
            kind = .internalFailure
            message = (language == .ko ? "내부 오류: " : "internal error: ") + String(describing: error)
            usagePath = nil
        }
    }

    var exitCode: Int32 { kind.exitCode }

    /// What stderr shows: one JSON object, or `memoapp: …` lines with usage help.
    func render(isJSON: Bool, root: Command, language: Language) -> String {
        if isJSON {
            let document = JSON.object([
                ("error", .object([("code", .string(kind.code)), ("message", .string(message))])),
            ])
            return document.serialized + "\n"
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
