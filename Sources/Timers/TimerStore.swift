import MemoCore
import SQLite

/// Timers in the database. Every change is a read-modify-write of one timer
/// inside a single `BEGIN IMMEDIATE` transaction, with the clock read under
/// the lock: two processes pausing and resuming one timer at once are
/// serialized, each acting on the state the other left.
///
/// What happened while nobody watched (a countdown reaching zero, a reboot)
/// is always reported correctly and saved lazily, at the next read or write.
public final class TimerStore {
    public let connection: Connection
    public let clock: any TimerClock

    /// A store over `connection`, whose database has `TimerStore.migrations` applied.
    public init(connection: Connection, clock: any TimerClock) {
        self.connection = connection
        self.clock = clock
    }

    /// Starts a countdown of `duration` seconds, or a stopwatch when `duration` is nil.
    /// - Parameters:
    ///   - label: already checked with `TimerRecord.label(from:)`.
    ///   - uid: its identity, for importers that carry one; a new random
    ///     UUID when nil.
    /// - Throws: `.badInput` for a uid not in UUID form, `.duplicate` when a
    ///   timer already has it.
    ///   - todoID: the to-do its time is spent on, checked by the caller
    ///     (the to-dos are not this module's).
    public func start(duration: Double?, label: String?, uid: String? = nil, todoID: Int64? = nil) throws -> TimerSnapshot {
        let uid = try UUID4.uid(uid)
        return try connection.writeTransaction {
            let now = clock.reading()
            var timer = TimerRecord.started(duration: duration, label: label, at: now)
            timer.uid = uid
            timer.todoID = todoID
            timer.id = try insert(timer)
            timer.rev = try connection.revision(of: "timers", id: timer.id)
            return TimerSnapshot(timer: timer, reading: now)
        }
    }

    /// One timer as it is now.
    /// - Parameter persistingSettlement: when false, nothing is written even if
    ///   the timer finished unobserved (a waiting process polls this way).
    /// - Throws: `MemoError(.notFound)` when there is no such timer.
    public func snapshot(ofTimer id: Int64, persistingSettlement: Bool = true) throws -> TimerSnapshot {
        let (stored, now) = try connection.readTransaction { (try load(id: id), clock.reading()) }
        return settledSnapshot(stored, at: now, persisting: persistingSettlement)
    }

    /// The timer with `uid` as it is now, whatever id it has: a process that
    /// keeps watching one timer (a wait) follows it by its identity, so a
    /// restore that gives the id to another timer does not fool it.
    /// - Throws: `MemoError(.notFound)` when no timer has the uid any more.
    public func snapshot(ofTimerWithUID uid: String, persistingSettlement: Bool = true) throws -> TimerSnapshot {
        let (stored, now) = try connection.readTransaction { () -> (TimerRecord, ClockReading) in
            guard let id = try connection.queryFirst("SELECT id FROM timers WHERE uid = ?", uid, map: { $0.int64(0) })
            else {
                throw MemoError(.notFound, en: "The timer is gone: no timer has uid \(uid) any more.",
                                ko: "타이머가 없어졌습니다: uid가 \(uid)인 타이머가 더 이상 없습니다.")
            }
            return (try load(id: id), clock.reading())
        }
        return settledSnapshot(stored, at: now, persisting: persistingSettlement)
    }

    /// Active timers (running and paused) in the order they were started; with
    /// `includingEnded`, also finished, cancelled and stopped ones.
    public func snapshots(includingEnded: Bool) throws -> [TimerSnapshot] {
        let (stored, now) = try connection.readTransaction {
            let ids = try connection.query(
                includingEnded ? "SELECT id FROM timers ORDER BY id"
                               : "SELECT id FROM timers WHERE state IN ('running', 'paused') ORDER BY id") {
                $0.int64(0)
            }
            return (try ids.map { try load(id: $0) }, clock.reading())
        }
        var snapshots = stored.map { TimerSnapshot(timer: $0, reading: now) }
        let unsettled = zip(stored, snapshots).filter { $0 != $1.timer }.map { $0.0.id }
        if !unsettled.isEmpty, let settled = try? settle(ids: unsettled) {
            let fresh = Dictionary(uniqueKeysWithValues: settled.map { ($0.timer.id, $0) })
            snapshots = snapshots.map { fresh[$0.timer.id] ?? $0 }
        }
        // A countdown that finished unobserved leaves the active list.
        return includingEnded ? snapshots : snapshots.filter { $0.timer.state.isActive }
    }

    /// The most recently started timer that is running now (of `kind`, when given).
    /// - Throws: `MemoError(.notFound)` when none is.
    public func newestRunning(kind: TimerKind? = nil) throws -> TimerSnapshot {
        let newest = try snapshots(includingEnded: false).last {
            $0.timer.state == .running && (kind == nil || $0.timer.kind == kind)
        }
        guard let newest else {
            switch kind {
            case .countdown?:
                throw MemoError(.notFound, en: "No countdown is running.", ko: "실행 중인 카운트다운이 없습니다.")
            default:
                throw MemoError(.notFound, en: "No timer is running.", ko: "실행 중인 타이머가 없습니다.")
            }
        }
        return newest
    }

    /// Applies `action` to a timer, atomically.
    /// - Throws: `MemoError(.notFound)`, or `MemoError(.invalidState)` when the
    ///   timer's state (seen under the write lock) does not allow the action.
    public func apply(_ action: TimerAction, toTimer id: Int64) throws -> TimerSnapshot {
        try connection.writeTransaction {
            let now = clock.reading()
            let stored = try load(id: id)
            var changed = try stored.applying(action, at: now)
            try save(changed, replacing: stored)
            changed.rev = try connection.revision(of: "timers", id: id)
            return TimerSnapshot(timer: changed, reading: now)
        }
    }

    // MARK: - Private

    private func settledSnapshot(_ stored: TimerRecord, at now: ClockReading, persisting: Bool) -> TimerSnapshot {
        let snapshot = TimerSnapshot(timer: stored, reading: now)
        guard persisting, snapshot.timer != stored else { return snapshot }
        return (try? settle(ids: [stored.id]).first) ?? snapshot
    }

    /// Saves what happened unobserved to the given timers, reading each again
    /// under the write lock (another process may have changed it meanwhile).
    /// Readers call it best-effort: the figures they report are computed and
    /// correct either way, so a read-only or busy database must not make a
    /// plain `list` fail.
    private func settle(ids: [Int64]) throws -> [TimerSnapshot] {
        try connection.writeTransaction {
            let now = clock.reading()
            return try ids.map { id in
                let stored = try load(id: id)
                var settled = stored.settled(at: now)
                if settled != stored {
                    try save(settled, replacing: stored)
                    settled.rev = try connection.revision(of: "timers", id: id)
                }
                return TimerSnapshot(timer: settled, reading: now)
            }
        }
    }
}
