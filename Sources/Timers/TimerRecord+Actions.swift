import MemoCore

/// What a user can do to a timer after starting it.
public enum TimerAction: String, Sendable, CaseIterable {
    case pause
    case resume
    case cancel
    /// Stopwatch only: record the elapsed time as a lap.
    case lap
    /// Stopwatch only: end it and keep its total.
    case stop
}

extension TimerRecord {
    /// The timer after `action` at `now`, or a refusal. Pure: the store runs it
    /// inside one write transaction, on the row as it is under the lock.
    ///
    /// The timer is settled first, so pausing a countdown whose time already
    /// ran out is refused with "finished" rather than freezing it past its end.
    /// - Throws: `MemoError(.invalidState)` naming the state (or the kind, for
    ///   a stopwatch action on a countdown).
    public func applying(_ action: TimerAction, at now: ClockReading) throws -> TimerRecord {
        var timer = settled(at: now)
        switch action {
        case .pause:
            guard timer.state == .running else { throw timer.refusal(action) }
            timer.closeOpenSpan(at: now)
            timer.state = .paused
        case .resume:
            guard timer.state == .paused else { throw timer.refusal(action) }
            timer.spans.append(RunSpan(start: now))
            timer.state = .running
        case .cancel:
            guard timer.state.isActive else { throw timer.refusal(action) }
            timer.end(as: .cancelled, at: now)
        case .lap:
            guard timer.kind == .stopwatch else { throw timer.kindRefusal(action) }
            guard timer.state == .running else { throw timer.refusal(action) }
            let elapsed = timer.elapsed(at: now)
            // Never before the lap ahead of it: laps another device took
            // (synced) were measured on its clocks, and may stand a little
            // later than this device's own measure of the same moment.
            let previous = timer.laps.last?.elapsed ?? 0
            timer.laps.append(Lap(number: timer.laps.count + 1, elapsed: max(elapsed.seconds, previous),
                                  isEstimated: elapsed.isEstimated || previous > elapsed.seconds, recordedAt: now.wall))
        case .stop:
            guard timer.kind == .stopwatch else { throw timer.kindRefusal(action) }
            guard timer.state.isActive else { throw timer.refusal(action) }
            timer.end(as: .stopped, at: now)
        }
        return timer
    }

    // MARK: - Private

    private mutating func closeOpenSpan(at now: ClockReading) {
        if let last = spans.indices.last, spans[last].isOpen { spans[last].end = now }
    }

    private mutating func end(as final: TimerState, at now: ClockReading) {
        closeOpenSpan(at: now)
        state = final
        endedAt = now.wall
    }

    private func refusal(_ action: TimerAction) -> MemoError {
        let already = (action == .pause && state == .paused) || (action == .resume && state == .running)
        return MemoError(.invalidState,
                         en: "Cannot \(action.verb.en) timer \(id): it is \(already ? "already " : "")\(state.name.en).",
                         ko: "\(id)번 타이머를 \(action.verb.ko)할 수 없습니다: \(already ? "이미 " : "")"
                             + "\(state.koreanCondition) 상태입니다.")
    }

    private func kindRefusal(_ action: TimerAction) -> MemoError {
        switch action {
        case .lap:
            return MemoError(.invalidState,
                             en: "Cannot record a lap on timer \(id): it is a countdown; laps are for stopwatches.",
                             ko: "\(id)번 타이머에 랩을 기록할 수 없습니다: 카운트다운입니다. 랩은 스톱워치에만 있습니다.")
        default:
            return MemoError(.invalidState,
                             en: "Cannot \(action.verb.en) timer \(id): it is a countdown; "
                                 + "stop is for stopwatches, cancel ends a countdown early.",
                             ko: "\(id)번 타이머를 \(action.verb.ko)할 수 없습니다: 카운트다운입니다. "
                                 + "정지는 스톱워치용이고, 카운트다운은 취소로 일찍 끝냅니다.")
        }
    }
}

extension TimerAction {
    /// The verb in a sentence ("Cannot pause …", "…를 일시정지할 수 없습니다").
    var verb: Localized {
        switch self {
        case .pause: return Localized(en: "pause", ko: "일시정지")
        case .resume: return Localized(en: "resume", ko: "재개")
        case .cancel: return Localized(en: "cancel", ko: "취소")
        case .lap: return Localized(en: "record a lap on", ko: "랩 기록")
        case .stop: return Localized(en: "stop", ko: "정지")
        }
    }
}

extension TimerState {
    /// The state as a Korean modifier of 상태 ("일시정지된 상태").
    var koreanCondition: String {
        switch self {
        case .running: return "실행 중인"
        case .paused: return "일시정지된"
        case .finished: return "완료된"
        case .cancelled: return "취소된"
        case .stopped: return "정지된"
        }
    }
}
