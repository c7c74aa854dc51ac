/// What kind of failure a module reports. Each front end maps a kind to one
/// outcome of its own (the command line to an exit code, the server to an
/// HTTP status); `code` is the stable English word both show as `error.code`.
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
    /// Missing or wrong credentials (the server's token or session).
    case unauthorized = "unauthorized"
    /// A request or upload larger than the limit set for it.
    case tooLarge = "too_large"
    /// Stopped by the user (Ctrl-C) while waiting or recording.
    case interrupted = "interrupted"
    /// A server that cannot be reached (sync).
    case unavailable = "unavailable"

    /// The stable English word for JSON's `error.code`.
    public var code: String { rawValue }
}

/// The one error type feature modules throw for failures a user can meet.
/// Storage failures come as `SQLiteError` from the SQLite layer instead.
///
/// Messages say what went wrong in the words of the data, never which flag
/// or route would get past it: a front end adds that itself, keyed on `hint`.
public struct MemoError: Error, Sendable, CustomStringConvertible {
    /// A way past a failure that only a front end can word ("add --force",
    /// "POST /api/v1/onboarding/skip"). Modules declare their own as static
    /// members in extensions; front ends look them up by value.
    public struct Hint: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Finishing (or skipping) the onboarding opens the gate.
        public static let completeOnboarding = Hint(rawValue: "complete_onboarding")
        /// Repeating the request with the option that replaces or overrides
        /// what is there (a file, a data home with data).
        public static let force = Hint(rawValue: "force")
    }

    public let kind: ErrorKind
    public let message: Localized
    public let hint: Hint?

    public init(_ kind: ErrorKind, _ message: Localized, hint: Hint? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public init(_ kind: ErrorKind, hint: Hint? = nil, en: String, ko: String) {
        self.init(kind, Localized(en: en, ko: ko), hint: hint)
    }

    public var description: String { "\(kind.code): \(message.en)" }
}
