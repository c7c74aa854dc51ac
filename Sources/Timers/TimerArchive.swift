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
            // The id in this data home (an import ties the timer again by the
            // to-do's uid, which the application layer adds as `todo_uid`).
            ("todo_id", timer.todoID.map(JSON.int) ?? .null),
            ("seen_at", .exactTime(timer.seenAt)),
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
            guard TimerRecord.isValidElapsed(seconds) else {
                throw elapsed.failure(en: "a lap's total must be 0 to \(Int64(TimerRecord.longestSpan)) seconds",
                                      ko: "랩의 누적 시간은 0에서 \(Int64(TimerRecord.longestSpan))초 사이여야 합니다")
            }
            return Lap(number: Int(try lap.int("number", in: 1...Int64(Int32.max))), elapsed: seconds,
                       isEstimated: try lap.bool("is_estimated"), recordedAt: try lap.time("recorded_at"))
        }
        let timer = TimerRecord(id: try item.id(), uid: try item.uid(), kind: kind,
                                label: try label(in: item), duration: try duration(in: item), state: state,
                                createdAt: try item.time("created_at"), endedAt: try item.nullableTime("ended_at"),
                                spans: spans, laps: laps,
                                // Exports made before timers.4 have no such key.
                                seenAt: item.hasKey("seen_at") ? try item.nullableTime("seen_at") : nil)
        let problems = timer.consistencyProblems + timer.valueProblems
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
        let bootReader = try reader.nonNull("boot")
        let boot = try bootReader.finiteDouble()
        guard TimerRecord.isValidBootClock(boot) else {
            let limit = Int64(TimerRecord.longestSpan)
            throw bootReader.failure(en: "a boot clock reading must be -\(limit) to \(limit) seconds",
                                     ko: "부팅 시계 값은 -\(limit)에서 \(limit)초 사이여야 합니다")
        }
        let bootIDReader = try reader.nonNull("boot_id")
        let bootID = try bootIDReader.string()
        guard TimerRecord.isValidBootID(bootID) else {
            throw bootIDReader.failure(
                en: "a boot id is 1 to \(TimerRecord.maximumBootIDLength) printable ASCII characters",
                ko: "부팅 id는 출력 가능한 ASCII 문자 1~\(TimerRecord.maximumBootIDLength)개입니다")
        }
        return ClockReading(wall: try reader.time("wall"), boot: boot, bootID: bootID)
    }

    /// A countdown's length, as `timer start` would take it; null for a stopwatch.
    private static func duration(in item: JSONReader) throws -> Double? {
        guard let reader = try item.nullable("duration") else { return nil }
        let seconds = try reader.finiteDouble()
        guard TimerRecord.isValidDuration(seconds) else {
            throw reader.failure(
                en: "a countdown lasts more than 0 and at most \(Int64(DurationParser.maximumSeconds)) seconds (one year)",
                ko: "카운트다운 길이는 0초보다 길고 \(Int64(DurationParser.maximumSeconds))초(1년) 이하여야 합니다")
        }
        return seconds
    }

    /// The label, as `timer start --label` would take it: one trimmed line.
    private static func label(in item: JSONReader) throws -> String? {
        guard let reader = try item.nullable("label") else { return nil }
        let text = try reader.string()
        do {
            guard try TimerRecord.label(from: text) == text else {
                throw reader.failure(en: "a label has no spaces around it and is not empty",
                                     ko: "이름은 비어 있지 않고 앞뒤에 공백이 없어야 합니다")
            }
        } catch let error as MemoError where error.kind == .usage {
            throw reader.failure(en: error.message.en, ko: error.message.ko)
        }
        return text
    }
}

// MARK: - Stored values

extension TimerArchive {
    /// Every timer that cannot be read (a state no command makes) or holds
    /// values an import would refuse (`TimerRecord.valueProblems`).
    public static func storedValueProblems(in connection: Connection) throws -> [StoredValueProblem] {
        let ids = try connection.query("SELECT id FROM timers ORDER BY id") { $0.int64(0) }
        return try ids.compactMap { id in
            let problems: [String]
            do {
                problems = try TimerStore.load(id: id, from: connection).valueProblems
            } catch let error as MemoError where error.kind == .storage {
                problems = [error.message.en]
            }
            return problems.isEmpty ? nil : StoredValueProblem(table: "timers", id: id, problems: problems)
        }
    }
}
