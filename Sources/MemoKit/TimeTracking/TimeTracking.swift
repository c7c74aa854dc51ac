import MemoCore
import Notes
import Timers

/// Timers tied to to-dos, across the two modules that own them: a timer
/// started against a to-do (`timer start 25m --todo 3`) and the time a
/// to-do has had (`todo show`).
public enum TimeTracking {
    /// Starts a countdown (or a stopwatch, `duration` nil) against the to-do
    /// `todoID` when given, checked in the same transaction as the start.
    /// - Throws: `.notFound` for a to-do that does not exist.
    public static func startTimer(in workspace: Workspace, duration: Double?, label: String?,
                                  todoID: Int64?) throws -> TimerSnapshot {
        try workspace.database().writeTransaction {
            if let todoID { _ = try workspace.todoStore().todo(id: todoID) }
            return try workspace.timerStore().start(duration: duration, label: label, todoID: todoID)
        }
    }

    /// The time spent on the to-do `todoID`: the running time of its timers,
    /// running ones counted up to now.
    /// - Throws: `.notFound` for a to-do that does not exist.
    public static func timeSpent(onTodo todoID: Int64, in workspace: Workspace)
        throws -> (spent: MeasuredDuration, timerCount: Int) {
        try workspace.timerStore().timeSpent(onTodo: todoID)
    }
}
