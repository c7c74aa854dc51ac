import MemoCore
import Onboarding
import SQLite

/// The onboarding gate, declared once for every front end: until the
/// onboarding is completed, the main features refuse to run and change
/// nothing. Front ends call `check` before any gated command or route; each
/// adds its own hint (which command or route completes the onboarding),
/// keyed on `MemoError.Hint.completeOnboarding`.
public enum OnboardingGate {
    /// The error every gated use answers with until the onboarding is completed.
    public static let closed = MemoError(
        .onboardingRequired, hint: .completeOnboarding,
        en: "finish the onboarding first", ko: "먼저 온보딩을 마치세요")

    /// Throws `closed` unless the onboarding is completed. Creates nothing
    /// when the data home or its database does not exist yet.
    public static func check(_ workspace: Workspace) throws {
        guard try isOpen(workspace) else { throw closed }
    }

    /// Whether the onboarding is completed; false, creating nothing, when the
    /// data home or its database does not exist yet.
    /// - Throws: `.storage` for a data home memoapp cannot use (a file,
    ///   another user's folder): that, not the onboarding, is what stops it.
    public static func isOpen(_ workspace: Workspace) throws -> Bool {
        try workspace.home.checkUsable()
        return try workspace.home.hasDatabase && isCompleted(in: workspace.database())
    }

    /// Throws `closed` unless the onboarding stored in `connection` is completed.
    public static func check(_ connection: Connection) throws {
        guard try isCompleted(in: connection) else { throw closed }
    }

    /// Whether the onboarding stored in `connection` is completed.
    public static func isCompleted(in connection: Connection) throws -> Bool {
        try OnboardingStore(connection: connection).state().isCompleted
    }
}
