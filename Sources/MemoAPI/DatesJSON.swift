import MemoCore
import Notes

extension WireFormat {
    /// What a due date's words mean, before anything is stored with them
    /// (`GET /api/v1/dates/parse`): the to-do's own `due_at`, `due_local`
    /// and `due_has_time` for them, and `warning`, a sentence in the
    /// request's language when the date is far in the past or the future
    /// (null otherwise).
    public static func parsedDue(_ due: Due, calendar: some LocalCalendar, warning: String?) -> JSON {
        .object([
            ("due_at", .time(due.instant)),
            ("due_local", .string(due.description(in: calendar))),
            ("due_has_time", .bool(due.hasTime)),
            ("warning", warning.map(JSON.string) ?? .null),
        ])
    }
}
