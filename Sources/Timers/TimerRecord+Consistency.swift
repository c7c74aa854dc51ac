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
