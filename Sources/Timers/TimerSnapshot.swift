import MemoCore

/// A timer as seen at one reading of the clocks: the figures a front end shows
/// all come from the same instant, so elapsed and remaining always add up.
public struct TimerSnapshot: Equatable, Sendable {
    /// The timer, settled at `reading` (a countdown past its end is finished).
    public let timer: TimerRecord
    /// The moment the figures refer to.
    public let reading: ClockReading

    public init(timer: TimerRecord, reading: ClockReading) {
        self.timer = timer.settled(at: reading)
        self.reading = reading
    }

    public var elapsed: MeasuredDuration { timer.elapsed(at: reading) }

    /// Nil for a stopwatch.
    public var remaining: MeasuredDuration? { timer.remaining(at: reading) }

    /// A countdown's end, actual or projected; see `TimerRecord.endTime(at:)`.
    public var endTime: Timestamp? { timer.endTime(at: reading) }

    /// True when any figure had to be measured on the wall clock across a reboot.
    public var isEstimated: Bool { elapsed.isEstimated }
}
