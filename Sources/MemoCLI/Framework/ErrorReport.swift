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
            message = ErrorReport.message(for: failure, language: language)
            usagePath = nil
        default:
            kind = .internalFailure
            message = (language == .ko ? "내부 오류: " : "internal error: ") + String(describing: error)
            usagePath = nil
        }
    }

    var exitCode: Int32 { kind.exitCode }

    /// A storage failure in words a user can act on when the cause is a common
    /// one (a full disk, a read-only one, a damaged database), followed by
    /// SQLite's own words, the system's reason and the code name.
    static func message(for failure: SQLiteError, language: Language) -> String {
        let detail = failure.message + (failure.systemReason.map { " (\($0))" } ?? "") + " [\(failure.codeName)]"
        let plain: Localized
        if failure.isDiskFull {
            plain = Localized(en: "the disk holding the data home is full; nothing was changed. Free some space and try again",
                              ko: "데이터 폴더가 있는 디스크가 가득 찼습니다. 아무것도 바꾸지 않았습니다. 공간을 확보한 뒤 다시 시도하세요")
        } else if failure.isReadOnly {
            plain = Localized(en: "the data home cannot be written (a read-only disk or file); nothing was changed",
                              ko: "데이터 폴더에 쓸 수 없습니다 (읽기 전용 디스크나 파일). 아무것도 바꾸지 않았습니다")
        } else if failure.isCorrupt {
            plain = Localized(en: "the database is damaged or is not memoapp's; run 'memoapp doctor'",
                              ko: "데이터베이스가 손상되었거나 memoapp의 것이 아닙니다. 'memoapp doctor'를 실행하세요")
        } else {
            return (language == .ko ? "저장소 오류: " : "storage failure: ") + detail
        }
        return plain.text(in: language) + ": " + detail
    }

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
