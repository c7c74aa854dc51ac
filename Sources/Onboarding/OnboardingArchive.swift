import MemoCore
import SQLite

/// The onboarding state in memoapp's export document:
/// `{"current_page": 4, "completed_at": "2026-11-29T13:24:04.25Z"}`.
public enum OnboardingArchive {
    /// The stored state. Call inside a read transaction.
    public static func export(from connection: Connection) throws -> JSON {
        json(try OnboardingStore(connection: connection).state())
    }

    /// A state as the export writes it.
    public static func json(_ state: OnboardingState) -> JSON {
        .object([("current_page", .int(state.flow.currentPage)), ("completed_at", .exactTime(state.completedAt))])
    }
}
