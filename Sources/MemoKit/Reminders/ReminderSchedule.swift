import MemoCore

/// The watcher's decision at one look, as a pure function of the candidate
/// events, what was already told and the time: which to tell now, and when
/// to look next. No database, no clock of its own (tests hand it "now").
public enum ReminderSchedule {
    /// Events that came due longer ago than this are not told at all: a
    /// watcher started after a week away tells of the last day, not of
    /// every old to-do. 24 hours.
    public static let missedBound: Double = 24 * 3600

    /// An event told more than this after its moment is told as missed.
    /// A minute: more than any wake-up takes, less than anyone would call
    /// "on time".
    public static let lateness: Double = 60

    /// The longest sleep between looks even with nothing ahead sooner: the
    /// sleep is measured on the monotonic clock, which stands still while
    /// the machine is suspended and knows nothing of a changed date, so the
    /// wall clock is looked at again at least this often (one look, no work).
    public static let longestSleep: Double = 600

    /// What to do at one look.
    public struct Plan: Equatable, Sendable {
        /// Events to tell now, oldest first.
        public var due: [DueReminder]
        /// The earliest moment still ahead (nil: none).
        public var nextAt: Timestamp?

        public init(due: [DueReminder], nextAt: Timestamp?) {
            self.due = due
            self.nextAt = nextAt
        }

        /// Seconds to sleep from `now` before the next look: until `nextAt`
        /// (a few milliseconds past it, so the event has come when looked at),
        /// at most `longestSleep`.
        public func sleep(from now: Timestamp) -> Double {
            guard let nextAt else { return ReminderSchedule.longestSleep }
            return min(ReminderSchedule.longestSleep, max(0, nextAt.secondsSince1970 - now.secondsSince1970) + 0.005)
        }
    }

    /// Plans one look at `now`.
    /// - Parameters:
    ///   - candidates: every event that may be due now or later.
    ///   - told: the occurrences already told (by this or any earlier watcher).
    public static func plan(candidates: [ReminderEvent], told: Set<ReminderEvent.Key>, now: Timestamp) -> Plan {
        var due: [DueReminder] = []
        var nextAt: Timestamp?
        for event in candidates {
            let late = now.secondsSince1970 - event.at.secondsSince1970
            if late < 0 {
                nextAt = min(nextAt ?? event.at, event.at)
            } else if late <= missedBound && !told.contains(event.key) {
                due.append(DueReminder(event: event, isMissed: late > lateness))
            }
        }
        due.sort { ($0.event.at, $0.event.kind.rawValue, $0.event.itemID) < ($1.event.at, $1.event.kind.rawValue, $1.event.itemID) }
        return Plan(due: due, nextAt: nextAt)
    }
}
