import MemoCore
import SQLite

/// Timers tied to to-dos (`timer start --todo`) and finished timers waiting
/// to be seen.
extension TimerStore {
    /// The running time of every timer tied to the to-do `todoID` (finished,
    /// stopped and cancelled ones as they ended, running ones up to now),
    /// and how many timers there are. One indexed read of the to-do's timers.
    public func timeSpent(onTodo todoID: Int64) throws -> (spent: MeasuredDuration, timerCount: Int) {
        let (stored, now) = try connection.readTransaction {
            let ids = try connection.query("SELECT id FROM timers WHERE todo_id = ? ORDER BY id", todoID) { $0.int64(0) }
            return (try ids.map { try load(id: $0) }, clock.reading())
        }
        var spent = MeasuredDuration(seconds: 0, isEstimated: false)
        for timer in stored {
            let elapsed = timer.elapsed(at: now)
            spent.seconds += elapsed.seconds
            spent.isEstimated = spent.isEstimated || elapsed.isEstimated
        }
        return (spent, stored.count)
    }

    /// Finished countdowns nobody has seen yet, oldest first: what the main
    /// screen keeps showing until `markSeen`.
    public func unseenFinished() throws -> [TimerSnapshot] {
        // Settles countdowns that ran out unobserved, so they count as finished.
        _ = try snapshots(includingEnded: false)
        let (stored, now) = try connection.readTransaction {
            let ids = try connection.query(
                "SELECT id FROM timers WHERE state = 'finished' AND seen_at IS NULL ORDER BY ended_at, id") { $0.int64(0) }
            return (try ids.map { try load(id: $0) }, clock.reading())
        }
        return stored.map { TimerSnapshot(timer: $0, reading: now) }
    }

    /// Throws `.invalidState` for a timer still running or paused: only an
    /// ended timer can be dismissed.
    public static func checkDismissible(_ snapshot: TimerSnapshot) throws {
        let timer = snapshot.timer
        guard timer.state.isActive else { return }
        throw MemoError(.invalidState, en: "timer \(timer.id) is \(timer.state.name.en): only an ended timer is dismissed",
                        ko: "\(timer.id)번 타이머는 \(timer.state.name.ko) 상태입니다: 끝난 타이머만 치울 수 있습니다")
    }

    /// Marks the given timers seen, those that have ended and were not yet;
    /// returns how many it marked. Active timers are left alone: a timer is
    /// seen ended only once it has ended.
    @discardableResult
    public func markSeen(ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try connection.writeTransaction {
            let now = clock.reading().wall.secondsSince1970
            var marked = 0
            for id in ids {
                try connection.execute("""
                    UPDATE timers SET seen_at = ? WHERE id = ? AND seen_at IS NULL
                        AND state IN ('finished', 'cancelled', 'stopped')
                    """, now, id)
                marked += connection.changes
            }
            return marked
        }
    }
}
