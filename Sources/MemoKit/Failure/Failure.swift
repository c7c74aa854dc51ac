import MemoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// Any error, classified once for every front end: its kind (which the
/// command line turns into an exit code and the server into a status), its
/// message in both languages, and the hint a front end may word after it.
///
/// Storage failures are said in words a user can act on when the cause is a
/// common one (a full disk, a read-only one, a damaged database), followed by
/// SQLite's own words, the system's reason and the code name.
public struct Failure: Sendable {
    public let kind: ErrorKind
    public let message: Localized
    public let hint: MemoError.Hint?

    public init(kind: ErrorKind, message: Localized, hint: MemoError.Hint? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// Classifies `error`: memoapp's own errors keep their kind and words,
    /// SQLite's are explained, anything else is an internal failure.
    public init(_ error: Error) {
        switch error {
        case let failure as MemoError:
            self.init(kind: failure.kind, message: failure.message, hint: failure.hint)
        case let failure as SQLiteError:
            self.init(failure)
        default:
            let detail = String(describing: error)
            self.init(kind: .internalFailure, message: Localized(en: "internal error: " + detail, ko: "내부 오류: " + detail))
        }
    }

    private init(_ failure: SQLiteError) {
        let detail = failure.message + (failure.systemReason.map { " (\($0))" } ?? "") + " [\(failure.codeName)]"
        let plain: Localized
        var hint: MemoError.Hint?
        if failure.systemErrorNumber == EFBIG {
            plain = Localized(en: "a file of the data home would grow past the file size limit (ulimit -f); nothing was changed",
                              ko: "데이터 폴더의 파일이 파일 크기 제한(ulimit -f)을 넘게 됩니다. 아무것도 바꾸지 않았습니다")
        } else if failure.isDiskFull {
            plain = Localized(en: "the disk holding the data home is full; nothing was changed. Free some space and try again",
                              ko: "데이터 폴더가 있는 디스크가 가득 찼습니다. 아무것도 바꾸지 않았습니다. 공간을 확보한 뒤 다시 시도하세요")
        } else if failure.isReadOnly {
            plain = Localized(en: "the data home cannot be written (a read-only disk or file); nothing was changed",
                              ko: "데이터 폴더에 쓸 수 없습니다 (읽기 전용 디스크나 파일). 아무것도 바꾸지 않았습니다")
        } else if failure.isCorrupt {
            plain = Localized(en: "the database is damaged or is not memoapp's",
                              ko: "데이터베이스가 손상되었거나 memoapp의 것이 아닙니다")
            hint = .examineDataHome
        } else {
            self.init(kind: failure.kind, message: Localized(en: "storage failure: " + detail, ko: "저장소 오류: " + detail))
            return
        }
        self.init(kind: failure.kind, message: Localized(en: plain.en + ": " + detail, ko: plain.ko + ": " + detail),
                  hint: hint)
    }
}

extension MemoError.Hint {
    /// The data home's examination (the doctor) says what is wrong and how to fix it.
    public static let examineDataHome = MemoError.Hint(rawValue: "examine_data_home")
}
