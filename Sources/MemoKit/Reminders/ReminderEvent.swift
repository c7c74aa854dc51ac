import MemoCore

/// Something `memoapp remind` tells the user about: a countdown that ended,
/// a to-do that fell due, a to-do's reminder time.
public struct ReminderEvent: Hashable, Sendable {
    /// What happened. The raw values are the event names front ends show
    /// (`MEMOAPP_EVENT`, the JSON's `event`).
    public enum Kind: String, Sendable, CaseIterable {
        case timerFinished = "timer.finished"
        case todoDue = "todo.due"
        case todoRemind = "todo.remind"
    }

    public let kind: Kind
    /// The timer's or the to-do's id.
    public let itemID: Int64
    /// The item's uid: what "told" is recorded against, so a restore that
    /// gives the id to another item does not silence that one.
    public let itemUID: String
    /// The to-do's title, or the timer's label (nil: a timer without one).
    public let title: String?
    /// When it comes (came) due: a countdown's end, a to-do's due moment
    /// (`Due.reminderMoment`), its reminder time.
    public let at: Timestamp
    /// What makes this occurrence the same one across looks and restarts: for
    /// a to-do its moment (a new due or reminder time is a new occurrence,
    /// told again), for a timer its start (a timer ends once; its end, worked
    /// out afresh at each look, may differ in the last digits).
    public let occurrence: Double

    public init(kind: Kind, itemID: Int64, itemUID: String, title: String?, at: Timestamp, occurrence: Double) {
        self.kind = kind
        self.itemID = itemID
        self.itemUID = itemUID
        self.title = title
        self.at = at
        self.occurrence = occurrence
    }

    /// The identity of this occurrence, as `reminders_told` stores it.
    public var key: Key { Key(kind: kind.rawValue, itemUID: itemUID, occurrence: occurrence) }

    /// An occurrence's identity.
    public struct Key: Hashable, Sendable {
        public let kind: String
        public let itemUID: String
        public let occurrence: Double
    }
}

/// An event to tell now, and whether it is news or was missed (it came due
/// while no watcher ran, or the watcher could not look in time).
public struct DueReminder: Hashable, Sendable {
    public let event: ReminderEvent
    public let isMissed: Bool

    public init(event: ReminderEvent, isMissed: Bool) {
        self.event = event
        self.isMissed = isMissed
    }
}
