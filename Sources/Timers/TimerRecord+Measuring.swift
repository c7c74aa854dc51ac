import MemoCore

extension RunSpan {
    /// The running time of this span, up to `now` while it is open.
    ///
    /// Within one boot the boot clock measures, so changing the date moves
    /// nothing. Across a reboot the boot clock restarted, so the wall clock is
    /// the only witness left: the figure is then marked estimated. A negative
    /// difference (the wall clock set back across a reboot) counts as zero.
    public func measured(until now: ClockReading) -> MeasuredDuration {
        let end = self.end ?? now
        if end.bootID == start.bootID {
            return MeasuredDuration(seconds: max(0, end.boot - start.boot), isEstimated: false)
        }
        return MeasuredDuration(seconds: max(0, end.wall.secondsSince1970 - start.wall.secondsSince1970),
                                isEstimated: true)
    }
}

extension TimerRecord {
    /// Running time so far: the sum of the spans. A countdown's elapsed time
    /// never exceeds its duration.
    public func elapsed(at now: ClockReading) -> MeasuredDuration {
        let total = rawElapsed(at: now)
        guard let duration else { return total }
        if state == .finished { return MeasuredDuration(seconds: duration, isEstimated: total.isEstimated) }
        return MeasuredDuration(seconds: min(total.seconds, duration), isEstimated: total.isEstimated)
    }

    /// A countdown's time left (zero once it is over); nil for a stopwatch.
    public func remaining(at now: ClockReading) -> MeasuredDuration? {
        guard let duration else { return nil }
        if state == .finished { return MeasuredDuration(seconds: 0, isEstimated: rawElapsed(at: now).isEstimated) }
        let elapsed = rawElapsed(at: now)
        return MeasuredDuration(seconds: max(0, duration - elapsed.seconds), isEstimated: elapsed.isEstimated)
    }

    /// When a countdown ends on the wall clock: the time it finished, or for a
    /// running one the time it will finish if nobody pauses it (counted from
    /// `now` on the current wall clock, so a corrected date corrects it too).
    /// nil for a stopwatch, a paused countdown and a cancelled one.
    public func endTime(at now: ClockReading) -> Timestamp? {
        let timer = settled(at: now)
        switch timer.state {
        case .finished:
            return timer.endedAt
        case .running:
            return timer.remaining(at: now).map { now.wall.adding(seconds: $0.seconds) }
        case .paused, .cancelled, .stopped:
            return nil
        }
    }

    /// The timer as it truly is at `now`, with what happened while nobody
    /// watched written into its spans:
    /// - a running countdown whose time ran out is finished, its last span
    ///   closed at the moment it reached zero (not at `now`), and `endedAt`
    ///   set to that moment;
    /// - a running timer whose open span began in an earlier boot has that
    ///   span closed now and a new one opened, so that from here on it is
    ///   measured on this boot's clock instead of the wall clock.
    /// Everything else comes back unchanged. The store saves the result lazily.
    public func settled(at now: ClockReading) -> TimerRecord {
        guard state == .running, let last = spans.indices.last, spans[last].isOpen else { return self }
        var timer = self
        if let duration {
            let elapsed = rawElapsed(at: now).seconds
            if elapsed >= duration {
                // Go back from now by the overshoot on both clocks, so the
                // closed span measures exactly what was left, whichever clock
                // measures it.
                let end = now.shifted(by: -(elapsed - duration))
                timer.spans[last].end = end
                timer.state = .finished
                timer.endedAt = end.wall
                return timer
            }
        }
        if spans[last].start.bootID != now.bootID {
            timer.spans[last].end = now
            timer.spans.append(RunSpan(start: now))
        }
        return timer
    }

    /// The plain sum of the spans, without a countdown's cap.
    func rawElapsed(at now: ClockReading) -> MeasuredDuration {
        var total = MeasuredDuration(seconds: 0, isEstimated: false)
        for span in spans {
            let part = span.measured(until: now)
            total.seconds += part.seconds
            total.isEstimated = total.isEstimated || part.isEstimated
        }
        return total
    }
}
