import MemoCore
import MemoKit

extension WireFormat {
    /// One event `memoapp remind --json` tells, a line each: `event` is
    /// `timer.finished`, `todo.due` or `todo.remind`; `item` says which table
    /// `id` is in; `missed` is true when it came due while no watcher ran
    /// (or more than `ReminderSchedule.lateness` before it was told).
    public static func reminder(_ reminder: DueReminder) -> JSON {
        let event = reminder.event
        return .object([
            ("event", .string(event.kind.rawValue)),
            ("item", .string(event.kind == .timerFinished ? "timer" : "todo")),
            ("id", .int(event.itemID)),
            ("uid", .uid(event.itemUID)),
            ("title", .optional(event.title)),
            ("at", .time(event.at)),
            ("missed", .bool(reminder.isMissed)),
        ])
    }
}
