import MemoCore
import SQLite

/// The persisted onboarding: the current page and, once finished, when.
public struct OnboardingState: Equatable, Sendable {
    public var flow: OnboardingFlow
    public var completedAt: Timestamp?

    public var isCompleted: Bool { flow.isCompleted }
}

/// Keeps the onboarding state in its one-row table, so an interrupted
/// onboarding resumes where it stopped and completion survives restarts.
public struct OnboardingStore {
    /// The onboarding module's schema.
    public static let migrations: [Migration] = [
        Migration("onboarding.1-create-state", sql: """
            CREATE TABLE onboarding_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                current_page INTEGER NOT NULL DEFAULT 1,
                completed_at REAL
            );
            INSERT INTO onboarding_state (id, current_page, completed_at) VALUES (1, 1, NULL);
            """),
    ]

    let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// The state as stored now.
    public func state() throws -> OnboardingState {
        try connection.queryFirst("SELECT current_page, completed_at FROM onboarding_state WHERE id = 1") { row in
            OnboardingState(
                flow: OnboardingFlow(currentPage: row.int(0), isCompleted: !row.isNull(1)),
                completedAt: row.optionalDouble(1).map(Timestamp.init(secondsSince1970:)))
        } ?? OnboardingState(flow: OnboardingFlow(), completedAt: nil)
    }

    /// Applies `action` to the stored flow in one write transaction, so two
    /// processes acting at once each see the other's result.
    @discardableResult
    public func apply(_ action: OnboardingAction, at now: Timestamp) throws -> OnboardingState {
        try connection.writeTransaction {
            let current = try state()
            let flow = try current.flow.applying(action)
            // Completing again keeps the first completion time.
            let completedAt = flow.isCompleted ? (current.completedAt ?? now) : nil
            try save(OnboardingState(flow: flow, completedAt: completedAt))
            return OnboardingState(flow: flow, completedAt: completedAt)
        }
    }

    /// Back to the start: page 1, not completed. The gate closes again.
    @discardableResult
    public func reset() throws -> OnboardingState {
        try connection.writeTransaction {
            let fresh = OnboardingState(flow: OnboardingFlow(), completedAt: nil)
            try save(fresh)
            return fresh
        }
    }

    private func save(_ state: OnboardingState) throws {
        try connection.execute(
            "INSERT OR REPLACE INTO onboarding_state (id, current_page, completed_at) VALUES (1, ?, ?)",
            state.flow.currentPage, state.completedAt?.secondsSince1970)
    }
}
