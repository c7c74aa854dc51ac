/// What kind of failure a module reports. The CLI maps each kind to one exit
/// code and one stable `error.code` word (CONVENTIONS.md, "Exit codes").
public enum ErrorKind: String, Sendable, CaseIterable {
    case internalFailure = "internal"
    case onboardingRequired = "onboarding_required"
    case notFound = "not_found"
    case invalidState = "invalid_state"
    case duplicate = "duplicate"
    case usage = "usage"
    case badInput = "bad_input"
    case noInput = "no_input"
    case storage = "storage"

    /// The process exit status for this kind (sysexits.h numbers where they exist).
    public var exitCode: Int32 {
        switch self {
        case .internalFailure: return 1
        case .onboardingRequired: return 3
        case .notFound: return 4
        case .invalidState, .duplicate: return 5
        case .usage: return 64
        case .badInput: return 65
        case .noInput: return 66
        case .storage: return 74
        }
    }

    /// The stable English word for JSON's `error.code`.
    public var code: String { rawValue }
}

/// The one error type feature modules throw for failures a user can meet.
/// Storage failures come as `SQLiteError` from the SQLite layer instead.
public struct MemoError: Error, Sendable, CustomStringConvertible {
    public let kind: ErrorKind
    public let message: Localized

    public init(_ kind: ErrorKind, _ message: Localized) {
        self.kind = kind
        self.message = message
    }

    public init(_ kind: ErrorKind, en: String, ko: String) {
        self.init(kind, Localized(en: en, ko: ko))
    }

    public var description: String { "\(kind.code): \(message.en)" }
}
