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
    /// The module's tables whose rows carry a uid.
    public static let tablesWithUIDs = ["timers"]

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

// MARK: - Import

extension TimerArchive {
    /// A timer from an export, every field checked: the types, and the rules
    /// the timers table's CHECKs and the state machine keep (a countdown has
    /// a positive duration, only a running timer has an open span, laps are
    /// numbered from 1 and never go back…). Errors name the path.
    public static func timer(from item: JSONReader) throws -> TimerRecord {
        let kindReader = try item.nonNull("kind")
        guard let kind = TimerKind(rawValue: try kindReader.string()) else {
            throw kindReader.failure(en: "the kind must be countdown or stopwatch", ko: "kind는 countdown 또는 stopwatch여야 합니다")
        }
        let stateReader = try item.nonNull("state")
        guard let state = TimerState(rawValue: try stateReader.string()) else {
            throw stateReader.failure(en: "the state must be running, paused, finished, cancelled or stopped",
                                      ko: "state는 running, paused, finished, cancelled, stopped 중 하나여야 합니다")
        }
        let spans = try item.elements("spans").map { span -> RunSpan in
            RunSpan(start: try reading(try span.nonNull("start")), end: try span.nullable("end").map(reading))
        }
        let laps = try item.elements("laps").map { lap -> Lap in
            let elapsed = try lap.nonNull("elapsed")
            let seconds = try elapsed.finiteDouble()
            guard seconds >= 0 else { throw elapsed.failure(en: "a lap cannot be negative", ko: "랩은 음수일 수 없습니다") }
            return Lap(number: Int(try lap.int("number", in: 1...Int64(Int32.max))), elapsed: seconds,
                       isEstimated: try lap.bool("is_estimated"), recordedAt: try lap.time("recorded_at"))
        }
        let timer = TimerRecord(id: try item.int("id", in: 1...Int64.max), uid: try item.uid(), kind: kind,
                                label: try item.nullableString("label"),
                                duration: try item.nullable("duration")?.finiteDouble(), state: state,
                                createdAt: try item.time("created_at"), endedAt: try item.nullableTime("ended_at"),
                                spans: spans, laps: laps)
        let problems = timer.consistencyProblems
        guard problems.isEmpty else {
            throw item.failure(en: "not a timer memoapp could have made: " + problems.joined(separator: "; "),
                               ko: "memoapp이 만들 수 없는 타이머입니다: " + problems.joined(separator: "; "))
        }
        return timer
    }

    /// Whether no timer is stored.
    public static func isEmpty(_ connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT NOT EXISTS (SELECT 1 FROM timers)") { $0.bool(0) } ?? true
    }

    /// Whether a timer with `uid` is stored.
    public static func contains(uid: String, in connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM timers WHERE uid = ?", uid) { _ in true } ?? false
    }

    /// Stores `timer` with its spans and laps exactly as given, under its own
    /// id when `keepingID` (a restore), else under a new one; returns the id.
    /// A running timer goes on running: its open span's readings are kept.
    /// Call inside a write transaction.
    /// - Throws: `.duplicate` when a timer has its uid.
    @discardableResult
    public static func insert(_ timer: TimerRecord, keepingID: Bool, into connection: Connection) throws -> Int64 {
        try TimerStore.insert(timer, keepingID: keepingID, into: connection)
    }

    // MARK: - Private

    private static func reading(_ reader: JSONReader) throws -> ClockReading {
        ClockReading(wall: try reader.time("wall"), boot: try reader.nonNull("boot").finiteDouble(),
                     bootID: try reader.string("boot_id"))
    }
}
