import MemoCore
import Timers

// The changes a person makes to timers (see `ItemChange`). A timer's
// actions are events: each pause, resume and lap is a change of its own.

/// Starts a countdown (with a duration) or a stopwatch, optionally counting
/// toward a to-do, which must exist.
public struct StartTimer: ItemChange {
    public var duration: Double?
    public var label: String?
    public var todoID: Int64?
    public init(duration: Double?, label: String?, todoID: Int64? = nil) {
        self.duration = duration
        self.label = label
        self.todoID = todoID
    }
    public var summary: String {
        "timer start" + (duration.map { " \(Int($0.rounded(.up)))s" } ?? "") + (label.map { " " + quotedTitle($0) } ?? "")
    }
    public func write(in workspace: Workspace) throws -> TimerSnapshot {
        try TimeTracking.startTimer(in: workspace, duration: duration, label: label, todoID: todoID)
    }
}

/// Pauses, resumes, laps, stops or cancels a timer.
public struct ActOnTimer: ItemChange {
    public var action: TimerAction
    public var id: Int64
    public init(_ action: TimerAction, id: Int64) {
        self.action = action
        self.id = id
    }
    public var summary: String { "timer \(action.rawValue) \(id)" }
    public func write(in workspace: Workspace) throws -> TimerSnapshot {
        try workspace.timerStore().apply(action, toTimer: id)
    }
}

/// Takes ended timers off the main screen; returns how many it took.
public struct DismissTimers: ItemChange {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "timer dismiss " + idWords(ids) }
    public func write(in workspace: Workspace) throws -> Int { try workspace.timerStore().markSeen(ids: ids) }
}
