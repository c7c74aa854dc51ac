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

extension OnboardingArchive {
    /// The onboarding state from an export. Errors name the path.
    public static func state(from reader: JSONReader) throws -> OnboardingState {
        let pageCount = OnboardingPage.all.count
        let page = try reader.int("current_page", in: 1...Int64(pageCount))
        let completedAt = try reader.nullableTime("completed_at")
        return OnboardingState(flow: OnboardingFlow(pageCount: pageCount, currentPage: Int(page),
                                                    isCompleted: completedAt != nil),
                               completedAt: completedAt)
    }

    /// Stores `state` as the data home's own, when it is a completed one: an
    /// import runs behind the gate, and a document that never finished the
    /// onboarding must not close the gate again. Call inside a write
    /// transaction. Returns whether it was stored.
    @discardableResult
    public static func restore(_ state: OnboardingState, into connection: Connection) throws -> Bool {
        guard let completedAt = state.completedAt else { return false }
        try connection.execute(
            "INSERT OR REPLACE INTO onboarding_state (id, current_page, completed_at) VALUES (1, ?, ?)",
            state.flow.currentPage, completedAt.secondsSince1970)
        return true
    }
}
