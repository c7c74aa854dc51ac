import MemoCore

/// A countdown runs toward an end; a stopwatch counts up until stopped.
public enum TimerKind: String, Sendable, CaseIterable {
    case countdown
    case stopwatch

    /// The kind's name for people.
    public var name: Localized {
        switch self {
        case .countdown: return Localized(en: "countdown", ko: "카운트다운")
        case .stopwatch: return Localized(en: "stopwatch", ko: "스톱워치")
        }
    }
}

/// Where a timer is in its life. `running` and `paused` are active; the other
/// three are final and refuse every action.
public enum TimerState: String, Sendable, CaseIterable {
    case running
    case paused
    /// A countdown that reached zero.
    case finished
    /// Ended early by the user; kept for the record.
    case cancelled
    /// A stopwatch the user stopped; its total is kept.
    case stopped

    /// Running or paused: the timer can still change.
    public var isActive: Bool { self == .running || self == .paused }

    /// The state's name for people.
    public var name: Localized {
        switch self {
        case .running: return Localized(en: "running", ko: "실행 중")
        case .paused: return Localized(en: "paused", ko: "일시정지됨")
        case .finished: return Localized(en: "finished", ko: "완료됨")
        case .cancelled: return Localized(en: "cancelled", ko: "취소됨")
        case .stopped: return Localized(en: "stopped", ko: "정지됨")
        }
    }
}

/// One stretch of running time, from a reading taken when the timer started or
/// resumed to one taken when it paused or ended. Pauses are the gaps between
/// spans; they are never measured, only left out.
public struct RunSpan: Equatable, Sendable {
    public var start: ClockReading
    /// nil while the timer runs in this span.
    public var end: ClockReading?

    public init(start: ClockReading, end: ClockReading? = nil) {
        self.start = start
        self.end = end
    }

    public var isOpen: Bool { end == nil }
}

/// A lap of a stopwatch: the total elapsed time when the lap was taken.
public struct Lap: Equatable, Sendable {
    /// 1 for the first lap.
    public var number: Int
    /// Total running time at the lap, in seconds.
    public var elapsed: Double
    /// True when part of `elapsed` was measured across a reboot on the wall clock.
    public var isEstimated: Bool
    /// Wall-clock time of the lap.
    public var recordedAt: Timestamp

    public init(number: Int, elapsed: Double, isEstimated: Bool, recordedAt: Timestamp) {
        self.number = number
        self.elapsed = elapsed
        self.isEstimated = isEstimated
        self.recordedAt = recordedAt
    }
}

/// A length of time and whether it is exact. A figure is estimated when some
/// of it had to be measured on the wall clock because a reboot lay inside it.
public struct MeasuredDuration: Equatable, Sendable {
    public var seconds: Double
    public var isEstimated: Bool

    public init(seconds: Double, isEstimated: Bool) {
        self.seconds = seconds
        self.isEstimated = isEstimated
    }
}

/// A countdown or stopwatch as stored: what it is, where it is in its life,
/// and its running time as explicit spans. Everything else (elapsed,
/// remaining, the end) is computed from these at a given reading, so a timer
/// keeps running with no process watching it.
public struct TimerRecord: Equatable, Sendable {
    /// The row id; 0 until the store has saved the timer.
    public var id: Int64
    /// The timer's identity in every data home (a UUID, lowercase); kept by
    /// export and import. Empty until the store has saved the timer.
    public var uid: String
    public var kind: TimerKind
    /// The user's name for it, if any.
    public var label: String?
    /// A countdown's length in seconds; nil for a stopwatch.
    public var duration: Double?
    public var state: TimerState
    /// Wall-clock time of `timer start`.
    public var createdAt: Timestamp
    /// When it finished, was cancelled or stopped; nil while active.
    public var endedAt: Timestamp?
    /// Running stretches in order; only the last may be open, and only while running.
    public var spans: [RunSpan]
    /// Stopwatch laps in order.
    public var laps: [Lap]
    /// The to-do this timer's time is spent on; nil for none.
    public var todoID: Int64?
    /// When the user first saw it ended (`timer list`, `timer status`,
    /// `timer dismiss`); nil until then.
    public var seenAt: Timestamp?
    /// Its revision in this data home: the number of its latest change
    /// (state, lap, link), from one counter of the home, so a higher rev is
    /// a later change; time passing changes nothing. 0 for one never stored.
    public var rev: Int64 = 0

    /// When it last changed: the latest of its start, each pause and
    /// resume, each lap, its end and when it was seen ended. Made from its
    /// events rather than stored: every change of a timer is one of them
    /// (time passing is none).
    public var updatedAt: Timestamp {
        var latest = createdAt
        func consider(_ moment: Timestamp?) {
            if let moment, moment > latest { latest = moment }
        }
        for span in spans {
            consider(span.start.wall)
            consider(span.end?.wall)
        }
        for lap in laps { consider(lap.recordedAt) }
        consider(endedAt)
        consider(seenAt)
        return latest
    }

    public init(id: Int64, uid: String = "", kind: TimerKind, label: String?, duration: Double?, state: TimerState,
                createdAt: Timestamp, endedAt: Timestamp?, spans: [RunSpan], laps: [Lap], todoID: Int64? = nil,
                seenAt: Timestamp? = nil) {
        self.id = id
        self.uid = uid
        self.kind = kind
        self.label = label
        self.duration = duration
        self.state = state
        self.createdAt = createdAt
        self.endedAt = endedAt
        self.spans = spans
        self.laps = laps
        self.todoID = todoID
        self.seenAt = seenAt
    }

    /// A new running timer: a countdown of `duration` seconds, or a stopwatch
    /// when `duration` is nil. Not yet saved (id 0).
    public static func started(duration: Double?, label: String?, at now: ClockReading) -> TimerRecord {
        precondition(duration.map { $0 > 0 && $0.isFinite } ?? true, "a countdown needs a positive duration")
        return TimerRecord(id: 0, kind: duration == nil ? .stopwatch : .countdown, label: label,
                           duration: duration, state: .running, createdAt: now.wall, endedAt: nil,
                           spans: [RunSpan(start: now)], laps: [])
    }

    /// Labels are shown on one line in lists, so control characters are
    /// refused, and a label stays short enough to read.
    public static let maximumLabelLength = 200

    /// `text` as a label: nil when empty or blank.
    /// - Throws: `MemoError(.usage)` for control characters or a label over
    ///   `maximumLabelLength` characters.
    public static func label(from text: String?) throws -> String? {
        guard let text else { return nil }
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if trimmed.isEmpty { return nil }
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw MemoError(.usage, en: "A timer label must be one line without control characters.",
                            ko: "타이머 이름은 제어 문자가 없는 한 줄이어야 합니다.")
        }
        if trimmed.count > maximumLabelLength {
            throw MemoError(.usage,
                            en: "A timer label may be at most \(maximumLabelLength) characters (got \(trimmed.count)).",
                            ko: "타이머 이름은 최대 \(maximumLabelLength)자입니다 (\(trimmed.count)자).")
        }
        return trimmed
    }
}
