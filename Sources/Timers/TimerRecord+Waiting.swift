import MemoCore

/// What a process waiting for a countdown does next.
public enum WaitStep: Equatable, Sendable {
    /// The countdown is over; it finished at this wall-clock time.
    case finished(at: Timestamp)
    /// It will never finish: it was cancelled.
    case abandoned(TimerState)
    /// Sleep until this time on the boot clock (CLOCK_BOOTTIME of the current
    /// boot), then read the timer again. `isEnd` says the deadline is the
    /// countdown's end, not merely the next check.
    case sleep(untilBoot: Double, isEnd: Bool)
}

extension TimerRecord {
    /// The next step of `timer wait` at `now`.
    ///
    /// A waiter sleeps to an absolute deadline: the countdown's end when it is
    /// nearer than `checkInterval`, otherwise the next check, at which it reads
    /// the row again to notice a pause, a resume or a cancel by another
    /// process. A paused countdown has no end yet, so only checks are due.
    /// - Throws: `MemoError(.invalidState)` for a stopwatch, which has no end.
    public func nextWaitStep(at now: ClockReading, checkInterval: Double) throws -> WaitStep {
        guard kind == .countdown else {
            throw MemoError(.invalidState,
                            en: "Timer \(id) is a stopwatch; it has no end to wait for.",
                            ko: "\(id)번 타이머는 스톱워치라 기다릴 끝이 없습니다.")
        }
        let timer = settled(at: now)
        switch timer.state {
        case .finished:
            return .finished(at: timer.endedAt ?? now.wall)
        case .cancelled, .stopped:
            return .abandoned(timer.state)
        case .paused:
            return .sleep(untilBoot: now.boot + checkInterval, isEnd: false)
        case .running:
            let remaining = timer.remaining(at: now)?.seconds ?? 0
            if remaining <= checkInterval { return .sleep(untilBoot: now.boot + remaining, isEnd: true) }
            return .sleep(untilBoot: now.boot + checkInterval, isEnd: false)
        }
    }
}
