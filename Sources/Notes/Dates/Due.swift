import MemoCore

/// When a to-do is due.
///
/// A due date without a time means "by the end of that day": it is stored as
/// the last second of the local day (23:59:59), so one comparison with "now"
/// answers "is it overdue?" for both kinds, and it sorts after the timed dues of
/// the same day. `hasTime` remembers which kind it is, for display.
public struct Due: Hashable, Sendable {
    /// The moment the to-do becomes overdue.
    public var instant: Timestamp
    /// Whether the user gave a time of day; false for date-only dues.
    public var hasTime: Bool

    /// A due moment; for a date-only due pass the end of that day.
    public init(instant: Timestamp, hasTime: Bool) {
        self.instant = instant
        self.hasTime = hasTime
    }

    /// A date-only due: the end of `date` in `calendar`.
    public static func endOf(_ date: CivilDate, in calendar: some LocalCalendar) -> Due {
        Due(instant: calendar.endOfDay(date), hasTime: false)
    }

    /// The local date the to-do is due on.
    public func date(in calendar: some LocalCalendar) -> CivilDate {
        calendar.date(at: instant)
    }

    /// `2026-11-30` for a date-only due, `2026-11-30 14:00` for a timed one.
    public func description(in calendar: some LocalCalendar) -> String {
        hasTime ? calendar.civil(at: instant).minuteDescription : date(in: calendar).description
    }

    /// The hour (local) at which `memoapp remind` tells about a date-only due
    /// or a date-only `--remind`: a morning hour, when the day's work is planned.
    public static let dateOnlyReminderHour = 9

    /// `09:00`: `dateOnlyReminderHour` as help texts show it.
    public static var dateOnlyReminderTime: String {
        (dateOnlyReminderHour < 10 ? "0" : "") + "\(dateOnlyReminderHour):00"
    }

    /// When a reminder of this due comes: its time of day, or
    /// `dateOnlyReminderHour`:00 local on its date when it has none (its
    /// stored instant, the end of the day, would be too late to act on).
    public func reminderMoment(in calendar: some LocalCalendar) -> Timestamp {
        hasTime ? instant : calendar.instant(of: CivilDateTime(date: date(in: calendar), hour: Due.dateOnlyReminderHour,
                                                               minute: 0))
    }

    /// Whether `now` is past the due moment.
    public func isOverdue(at now: Timestamp) -> Bool {
        instant < now
    }
}
