import MemoCore
import Notes
import SQLite
import Timers

/// What `memoapp remind` reads and records in the database: the events that
/// may be due (countdowns, to-dos' due moments and reminder times) and the
/// occurrences already told, in the table `reminders_told`, so that each is
/// told once, by one watcher, even across restarts.
public struct ReminderLedger {
    /// `reminders_told`: one row per occurrence told (see
    /// `ReminderEvent.occurrence`). Not an item: the undo log, export and
    /// import leave it alone; a backup carries it with the rest.
    public static let migrations: [Migration] = [
        Migration("reminders.1-told", sql: """
            CREATE TABLE reminders_told (
                kind TEXT NOT NULL CHECK (kind IN ('timer.finished', 'todo.due', 'todo.remind')),
                item_uid TEXT NOT NULL,
                occurrence REAL NOT NULL,
                told_at REAL NOT NULL,
                PRIMARY KEY (kind, item_uid, occurrence)
            ) WITHOUT ROWID;
            CREATE INDEX reminders_told_by_time ON reminders_told (told_at);
            """),
    ]

    private let workspace: Workspace

    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// Every event that may be due at `now` or before the next look:
    /// running countdowns (at their projected end), countdowns finished
    /// within `ReminderSchedule.missedBound`, and open to-dos' due moments and
    /// reminder times within it or up to `ReminderSchedule.longestSleep`
    /// ahead (a day more for due dates, whose morning is before their
    /// stored end of day): nothing later can come due before the next look.
    public func candidates(at now: Timestamp) throws -> [ReminderEvent] {
        let earliest = now.adding(seconds: -ReminderSchedule.missedBound)
        var events: [ReminderEvent] = []
        let timers = try workspace.timerStore()
        let timerIDs = try timers.countdownIDs(runningOrFinishedSince: earliest)
        for id in timerIDs {
            // Settles a countdown that ran out (stores it finished), so its
            // end is read the same by every later look.
            guard let snapshot = try? timers.snapshot(ofTimer: id), let end = snapshot.endTime else { continue }
            let timer = snapshot.timer
            events.append(ReminderEvent(kind: .timerFinished, itemID: timer.id, itemUID: timer.uid, title: timer.label,
                                        at: end, occurrence: timer.createdAt.secondsSince1970))
        }
        let calendar = workspace.calendar
        let latest = now.adding(seconds: ReminderSchedule.longestSleep + 86400)
        for todo in try workspace.todoStore().todosWithReminders(from: earliest, through: latest) {
            if let due = todo.due {
                let moment = due.reminderMoment(in: calendar)
                events.append(ReminderEvent(kind: .todoDue, itemID: todo.id, itemUID: todo.uid, title: todo.title,
                                            at: moment, occurrence: moment.secondsSince1970))
            }
            if let remindAt = todo.remindAt {
                events.append(ReminderEvent(kind: .todoRemind, itemID: todo.id, itemUID: todo.uid, title: todo.title,
                                            at: remindAt, occurrence: remindAt.secondsSince1970))
            }
        }
        return events
    }

    /// The occurrences told within `ReminderSchedule.missedBound` of `now`
    /// (older ones cannot be due again: the schedule drops them by age).
    public func told(at now: Timestamp) throws -> Set<ReminderEvent.Key> {
        let earliest = now.adding(seconds: -2 * ReminderSchedule.missedBound)
        return Set(try workspace.database().query(
            "SELECT kind, item_uid, occurrence FROM reminders_told WHERE told_at >= ?", earliest.secondsSince1970) {
            ReminderEvent.Key(kind: $0.string(0), itemUID: $0.string(1), occurrence: $0.double(2))
        })
    }

    /// Records `event` as told at `now`, unless it already is; true when this
    /// call recorded it (and so its caller, alone among watchers, tells it).
    /// Rows too old to matter are forgotten in the same transaction.
    public func claim(_ event: ReminderEvent, at now: Timestamp) throws -> Bool {
        let connection = try workspace.database()
        return try connection.writeTransaction {
            try connection.execute("""
                INSERT OR IGNORE INTO reminders_told (kind, item_uid, occurrence, told_at) VALUES (?, ?, ?, ?)
                """, event.kind.rawValue, event.itemUID, event.occurrence, now.secondsSince1970)
            let isNew = connection.changes == 1
            try connection.execute("DELETE FROM reminders_told WHERE told_at < ?",
                                   now.adding(seconds: -4 * ReminderSchedule.missedBound).secondsSince1970)
            return isNew
        }
    }
}
