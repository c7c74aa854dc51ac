import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// What a database holds, counted through each module's store, for the
/// output of backup and restore.
public struct BackupContents: Equatable, Sendable {
    public var todos = 0
    public var memos = 0
    public var voiceMemos = 0
    public var timers = 0
    public var isOnboarded = false

    /// Counts in `connection`'s database, which has every migration applied.
    /// Reads only, so a read-only copy will do.
    public init(counting connection: Connection) throws {
        let todoCounts = try TodoStore(connection: connection).counts()
        todos = todoCounts.open + todoCounts.done
        memos = try MemoStore(connection: connection).count()
        voiceMemos = try VoiceStore(connection: connection, directory: "").latest(limit: 0).total
        timers = try TimerStore(connection: connection, clock: SystemTimerClock()).count()
        isOnboarded = try OnboardingStore(connection: connection).state().isCompleted
    }
}
