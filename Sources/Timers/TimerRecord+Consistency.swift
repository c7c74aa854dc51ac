import MemoCore

extension TimerRecord {
    /// What is wrong with this timer, empty when nothing is: the states no
    /// sequence of actions can produce. The store refuses to hand out a row
    /// with problems (it would mean a damaged database), and tests use this to
    /// check that concurrent commands left a state some serial order could give.
    public var consistencyProblems: [String] {
        var problems: [String] = []
        switch kind {
        case .countdown:
            if !(duration.map { $0 > 0 && $0.isFinite } ?? false) { problems.append("countdown without a positive duration") }
            if state == .stopped { problems.append("countdown in state stopped") }
            if !laps.isEmpty { problems.append("countdown with laps") }
        case .stopwatch:
            if duration != nil { problems.append("stopwatch with a duration") }
            if state == .finished { problems.append("stopwatch in state finished") }
        }
        if state.isActive != (endedAt == nil) {
            problems.append("state \(state.rawValue) with ended_at \(endedAt?.rfc3339 ?? "null")")
        }
        if spans.isEmpty { problems.append("no running span") }
        for (index, span) in spans.enumerated() {
            let isLast = index == spans.count - 1
            if span.isOpen && !(isLast && state == .running) { problems.append("span \(index) open while \(state.rawValue)") }
            if let end = span.end, end.bootID == span.start.bootID, end.boot < span.start.boot {
                problems.append("span \(index) ends before it starts")
            }
            if index > 0, let previousEnd = spans[index - 1].end, previousEnd.bootID == span.start.bootID,
               span.start.boot < previousEnd.boot {
                problems.append("span \(index) overlaps the one before")
            }
        }
        if state == .running && spans.last?.isOpen != true { problems.append("running without an open span") }
        for (index, lap) in laps.enumerated() {
            if lap.number != index + 1 { problems.append("lap \(index + 1) numbered \(lap.number)") }
            if index > 0, lap.elapsed < laps[index - 1].elapsed { problems.append("lap \(lap.number) goes back in time") }
        }
        return problems
    }
}

// MARK: - Values memoapp can compute with

extension TimerRecord {
    /// The longest time memoapp measures or shows: the span of the times it
    /// stores (the years 1 to 9999). No lap, and no reading of the boot
    /// clock (which starts near zero at each boot), can be longer.
    public static let longestSpan: Double = 315_537_897_599

    /// The longest boot id kept: the kernel's is a 36-character UUID, the
    /// stand-in where /proc hides it is `boot-at-` and a number.
    public static let maximumBootIDLength = 64

    /// A countdown's length as `timer start` takes it: above zero, at most
    /// `DurationParser.maximumSeconds`.
    public static func isValidDuration(_ seconds: Double) -> Bool {
        seconds > 0 && seconds <= DurationParser.maximumSeconds
    }

    /// A length of running time (a lap's total): zero to `longestSpan`.
    public static func isValidElapsed(_ seconds: Double) -> Bool {
        seconds >= 0 && seconds <= longestSpan
    }

    /// A reading of the boot clock: at most `longestSpan` seconds either side
    /// of zero. Below zero is a real reading: a countdown that ran out while
    /// the machine was off ends at a moment placed before this boot began.
    public static func isValidBootClock(_ seconds: Double) -> Bool {
        seconds >= -longestSpan && seconds <= longestSpan
    }

    /// A boot id: 1 to `maximumBootIDLength` printable ASCII characters.
    public static func isValidBootID(_ text: String) -> Bool {
        (1...maximumBootIDLength).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// What in this timer lies outside what memoapp can compute with or show,
    /// empty when nothing does: the ranges an import checks. The store still
    /// hands such a timer out (a row from an older memoapp or the sqlite3
    /// shell) and every figure of it is computed without trapping; the doctor
    /// reports it.
    public var valueProblems: [String] {
        var problems: [String] = []
        if let duration, kind == .countdown, !TimerRecord.isValidDuration(duration) {
            problems.append("duration \(duration) is not above 0 and at most \(DurationParser.maximumSeconds) seconds")
        }
        if let label, (try? TimerRecord.label(from: label)) != label {
            problems.append("the label is not one trimmed line of at most \(TimerRecord.maximumLabelLength) characters")
        }
        if !createdAt.isSupported { problems.append("created_at \(createdAt.secondsSince1970) is outside the years 1 to 9999") }
        if let endedAt, !endedAt.isSupported {
            problems.append("ended_at \(endedAt.secondsSince1970) is outside the years 1 to 9999")
        }
        for (index, span) in spans.enumerated() {
            for (end, reading) in [("start", span.start), ("end", span.end)] {
                guard let reading else { continue }
                if !reading.wall.isSupported { problems.append("span \(index) \(end): the wall clock is outside the years 1 to 9999") }
                if !TimerRecord.isValidBootClock(reading.boot) {
                    problems.append("span \(index) \(end): boot clock \(reading.boot) is beyond ±\(TimerRecord.longestSpan)")
                }
                if !TimerRecord.isValidBootID(reading.bootID) { problems.append("span \(index) \(end): not a boot id") }
            }
        }
        for lap in laps {
            if !TimerRecord.isValidElapsed(lap.elapsed) {
                problems.append("lap \(lap.number): \(lap.elapsed) is outside 0...\(TimerRecord.longestSpan) seconds")
            }
            if !lap.recordedAt.isSupported { problems.append("lap \(lap.number): recorded_at is outside the years 1 to 9999") }
        }
        return problems
    }
}
