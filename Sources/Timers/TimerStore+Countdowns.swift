import MemoCore
import SQLite

extension TimerStore {
    /// The ids of the countdowns running now or finished at `since` or
    /// later, in id order, read without settling any: what a watcher that
    /// tells of finished countdowns looks at (the server's alarm, `memoapp
    /// remind`), each then reading the timer itself.
    public func countdownIDs(runningOrFinishedSince since: Timestamp) throws -> [Int64] {
        try connection.query("""
            SELECT id FROM timers WHERE kind = 'countdown' AND (state = 'running' OR (state = 'finished' AND ended_at >= ?))
            ORDER BY id
            """, since.secondsSince1970) { $0.int64(0) }
    }
}
