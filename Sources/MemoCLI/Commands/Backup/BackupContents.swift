import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// What a database holds, counted through each module's store, for the
/// output of backup and restore.
struct BackupContents: Equatable {
    var todos = 0
    var memos = 0
    var voiceMemos = 0
    var timers = 0
    var isOnboarded = false

    /// Counts in `connection`'s database, which has every migration applied.
    /// Reads only, so a read-only copy will do.
    init(counting connection: Connection) throws {
        let todoCounts = try TodoStore(connection: connection).counts()
        todos = todoCounts.open + todoCounts.done
        memos = try MemoStore(connection: connection).count()
        voiceMemos = try VoiceStore(connection: connection, directory: "").latest(limit: 0).total
        timers = try TimerStore(connection: connection, clock: SystemTimerClock()).count()
        isOnboarded = try OnboardingStore(connection: connection).state().isCompleted
    }

    /// The JSON members.
    var jsonMembers: [(String, JSON)] {
        [("todos", .int(todos)), ("memos", .int(memos)), ("voice_memos", .int(voiceMemos)),
         ("timers", .int(timers)), ("onboarded", .bool(isOnboarded))]
    }

    /// "3 to-dos, 1 memo, 2 voice memos, 0 timers".
    func text(in language: Language) -> String {
        func counted(_ count: Int, _ en: String, _ ko: String) -> String {
            language == .ko ? "\(ko) \(count)개" : "\(count) \(en)\(count == 1 ? "" : "s")"
        }
        return [counted(todos, "to-do", "할 일"), counted(memos, "memo", "메모"),
                counted(voiceMemos, "voice memo", "음성 메모"), counted(timers, "timer", "타이머")]
            .joined(separator: ", ")
    }
}
