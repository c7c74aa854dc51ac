import MemoCore
import Timers

extension WireFormat {
    /// One timer as read at one moment: durations in seconds (to the
    /// millisecond), times in RFC 3339 with milliseconds, since a timer's
    /// whole point is precise time. Stopwatches carry their laps.
    public static func timer(_ snapshot: TimerSnapshot) -> JSON {
        let timer = snapshot.timer
        var members: [(String, JSON)] = [
            ("id", .int(timer.id)),
            ("uid", .uid(timer.uid)),
            ("rev", .int(timer.rev)),
            ("kind", .string(timer.kind.rawValue)),
            ("label", .optional(timer.label)),
            ("state", .string(timer.state.rawValue)),
            ("duration", timer.duration.map { .double(milliseconds($0)) } ?? .null),
            ("elapsed", .double(milliseconds(snapshot.elapsed.seconds))),
            ("remaining", snapshot.remaining.map { .double(milliseconds($0.seconds)) } ?? .null),
            ("estimated", .bool(snapshot.isEstimated)),
            ("created_at", .time(timer.createdAt)),
            ("ends_at", .optional(snapshot.endTime)),
            ("ended_at", .optional(timer.endedAt)),
            ("todo_id", timer.todoID.map(JSON.int) ?? .null),
            ("seen_at", .optional(timer.seenAt)),
            ("updated_at", .time(timer.updatedAt)),
        ]
        if timer.kind == .stopwatch {
            var previous = 0.0
            members.append(("laps", .array(timer.laps.map { lap in
                defer { previous = lap.elapsed }
                return .object([
                    ("number", .int(lap.number)),
                    ("elapsed", .double(milliseconds(lap.elapsed))),
                    ("split", .double(milliseconds(lap.elapsed - previous))),
                    ("estimated", .bool(lap.isEstimated)),
                    ("recorded_at", .time(lap.recordedAt)),
                ])
            })))
        }
        return .object(members)
    }

    /// Seconds rounded to the millisecond.
    static func milliseconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}
