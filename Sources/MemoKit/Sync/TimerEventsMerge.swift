import MemoCore
import Timers

/// How one timer changed on two devices becomes one timer (docs/sync.md).
/// Its spans and laps are events, only ever added (a span also closed):
/// both devices' count. Its state is a field like any other, the later
/// wins; what the events and that state then disagree on is settled so
/// that the result is a timer some sequence of actions could make.
enum TimerEventsMerge {
    /// Both sides' spans and laps, as `spans` and `laps` columns. A span
    /// both have (the same start) ends at the earlier of its two ends: the
    /// first pause counts. Laps are the union, numbered by elapsed time.
    static func union(hub: SyncedKind.Values, device: SyncedKind.Values) throws -> (spans: String, laps: String) {
        func list(_ values: SyncedKind.Values, _ name: String) -> String { values.columns[name]?.textValue ?? "[]" }
        var spans: [RunSpan] = []
        var positions: [SpanKey: Int] = [:]
        for span in try SyncedTimers.spans(list(hub, "spans")) + SyncedTimers.spans(list(device, "spans")) {
            let key = SpanKey(span.start)
            if let position = positions[key] {
                spans[position].end = earlier(spans[position].end, span.end)
            } else {
                positions[key] = spans.count
                spans.append(span)
            }
        }
        var laps: [Lap] = []
        var seen = Set<LapKey>()
        for lap in try SyncedTimers.laps(list(hub, "laps")) + SyncedTimers.laps(list(device, "laps"))
        where seen.insert(LapKey(lap)).inserted {
            laps.append(lap)
        }
        laps.sort { ($0.elapsed, $0.recordedAt.secondsSince1970) < ($1.elapsed, $1.recordedAt.secondsSince1970) }
        for index in laps.indices { laps[index].number = index + 1 }
        return (SyncedTimers.json(spans).serialized, SyncedTimers.json(laps).serialized)
    }

    /// `values` as one consistent timer: spans in the order they started,
    /// each ending no later than the next starts; no open span unless the
    /// timer runs (closed when its state changed: its end, or the stamp of
    /// its state, `stateClock`); a timer that should run but has no open
    /// span left is paused, since no running time is invented. nil when
    /// even that is no timer memoapp can keep.
    static func normalized(_ values: SyncedKind.Values, stateClock: Int64) throws -> SyncedKind.Values? {
        var timer = try SyncedTimers.record(from: values.columns)
        guard !timer.spans.isEmpty else { return nil }
        timer.spans.sort { $0.start.wall.secondsSince1970 < $1.start.wall.secondsSince1970 }
        for index in timer.spans.indices.dropLast() {
            let next = timer.spans[index + 1].start
            if let end = timer.spans[index].end, end.wall.secondsSince1970 <= next.wall.secondsSince1970 { continue }
            timer.spans[index].end = next
        }
        let last = timer.spans.count - 1
        if timer.state != .running, timer.spans[last].end == nil {
            let start = timer.spans[last].start
            let at = timer.endedAt?.secondsSince1970 ?? Double(stateClock) / 1_000_000
            let wall = max(at, start.wall.secondsSince1970)
            timer.spans[last].end = ClockReading(wall: Timestamp(secondsSince1970: wall),
                                                 boot: start.boot + (wall - start.wall.secondsSince1970), bootID: start.bootID)
        }
        if timer.state == .running, timer.spans[last].end != nil { timer.state = .paused }
        guard timer.consistencyProblems.isEmpty else { return nil }
        var result = values
        result.columns["state"] = .text(timer.state.rawValue)
        result.columns["spans"] = .text(SyncedTimers.json(timer.spans).serialized)
        result.columns["laps"] = .text(SyncedTimers.json(timer.laps).serialized)
        return result
    }

    /// The earlier of two ends, an open end being the latest of all.
    private static func earlier(_ first: ClockReading?, _ second: ClockReading?) -> ClockReading? {
        guard let first else { return second }
        guard let second else { return first }
        return second.wall.secondsSince1970 < first.wall.secondsSince1970 ? second : first
    }

    private struct SpanKey: Hashable {
        let wall: Double, boot: Double, bootID: String
        init(_ reading: ClockReading) {
            wall = reading.wall.secondsSince1970
            boot = reading.boot
            bootID = reading.bootID
        }
    }

    private struct LapKey: Hashable {
        let elapsed: Double, at: Double, isEstimated: Bool
        init(_ lap: Lap) {
            elapsed = lap.elapsed
            at = lap.recordedAt.secondsSince1970
            isEstimated = lap.isEstimated
        }
    }
}
