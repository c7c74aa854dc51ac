import MemoCore
import Notes
import VoiceMemos

/// The main screen's parts: what a front end shows first once the
/// onboarding is completed. Each part is a member of one object.
extension WireFormat {
    /// To-dos and memos: `{"overdue", "due_today", "open_todo_count",
    /// "latest_memos", "memo_count"}`.
    public static func notesOverview(overdue: [Todo], dueToday: [Todo], openTodoCount: Int, latestMemos: [MemoSummary],
                                     memoCount: Int, encoder: TodoEncoder) -> JSON {
        .object([
            ("overdue", encoder.json(overdue)),
            ("due_today", encoder.json(dueToday)),
            ("open_todo_count", .int(openTodoCount)),
            ("latest_memos", .array(latestMemos.map(memo))),
            ("memo_count", .int(memoCount)),
        ])
    }

    /// Voice memos: `{"latest", "count"}`.
    public static func voiceOverview(latest: [VoiceMemo], count: Int, in store: VoiceStore) -> JSON {
        .object([("latest", .array(latest.map { voiceMemo($0, in: store) })), ("count", .int(count))])
    }

    /// The data home: `{"path", "onboarded_at"}`.
    public static func homeOverview(path: String, onboardedAt: Timestamp?) -> JSON {
        .object([("path", .string(path)), ("onboarded_at", .optional(onboardedAt))])
    }
}
