import MemoCore
import SQLite

/// Timers in memoapp's export document: the row, its running spans with all
/// three clock readings (wall, boot clock, boot id) and its laps, so that an
/// import gives back a timer that goes on exactly where it was.
///
///     {"id": 2, "uid": "…", "kind": "stopwatch", "label": "run", "duration": null,
///      "state": "running", "created_at": "…", "ended_at": null,
///      "spans": [{"start": {"wall": "…", "boot": 5012.25, "boot_id": "…"}, "end": null}],
///      "laps": [{"number": 1, "elapsed": 3.5, "is_estimated": false, "recorded_at": "…"}]}
public enum TimerArchive {
    /// Every timer, by id. Call inside a read transaction.
    /// - Throws: `MemoError(.storage)` for a timer no sequence of commands
    ///   could have written (a damaged database).
    public static func exportTimers(from connection: Connection) throws -> [JSON] {
        let ids = try connection.query("SELECT id FROM timers ORDER BY id") { $0.int64(0) }
        return try ids.map { json(try TimerStore.load(id: $0, from: connection)) }
    }

    /// One timer as the export writes it.
    public static func json(_ timer: TimerRecord) -> JSON {
        .object([
            ("id", .int(timer.id)),
            ("uid", .string(timer.uid)),
            ("kind", .string(timer.kind.rawValue)),
            ("label", .optional(timer.label)),
            ("duration", timer.duration.map(JSON.double) ?? .null),
            ("state", .string(timer.state.rawValue)),
            ("created_at", .exactTime(timer.createdAt)),
            ("ended_at", .exactTime(timer.endedAt)),
            ("spans", .array(timer.spans.map { span in
                .object([("start", json(span.start)), ("end", span.end.map(json) ?? .null)])
            })),
            ("laps", .array(timer.laps.map { lap in
                .object([
                    ("number", .int(lap.number)),
                    ("elapsed", .double(lap.elapsed)),
                    ("is_estimated", .bool(lap.isEstimated)),
                    ("recorded_at", .exactTime(lap.recordedAt)),
                ])
            })),
        ])
    }

    static func json(_ reading: ClockReading) -> JSON {
        .object([("wall", .exactTime(reading.wall)), ("boot", .double(reading.boot)),
                 ("boot_id", .string(reading.bootID))])
    }
}
