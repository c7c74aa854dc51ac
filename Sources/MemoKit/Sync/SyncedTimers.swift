import MemoCore
import SQLite
import Timers

/// Timers as sync knows them (docs/sync.md). A timer's fields are its
/// setup (kind, length, start), label, state, to-do, when it was seen
/// ended, and its events: the spans it ran and its laps. The events are
/// not a value one device's clock can order against another's: pauses
/// and laps made on two devices all count (`TimerEventsMerge`). Read and
/// written here, straight to the rows, as a backup does.
enum SyncedTimers {
    private typealias Column = SyncedKind.Column
    private typealias Field = SyncedKind.Field

    static let kind = SyncedKind(
        kind: .timer, table: "timers", tagTable: nil, tagItemColumn: nil,
        fields: [
            Field(name: "created", columns: [Column(name: "kind", type: .text, isNullable: false),
                                             Column(name: "duration", type: .number, isNullable: true),
                                             Column(name: "created_at", type: .number, isNullable: false)]),
            Field(name: "label", columns: [Column(name: "label", type: .text, isNullable: true)]),
            Field(name: "state", columns: [Column(name: "state", type: .text, isNullable: false),
                                           Column(name: "ended_at", type: .number, isNullable: true)]),
            Field(name: "todo", columns: [Column(name: "todo", type: .text, isNullable: true)]),
            Field(name: "seen", columns: [Column(name: "seen_at", type: .number, isNullable: true)]),
            Field(name: "events", columns: [Column(name: "spans", type: .list, isNullable: false),
                                            Column(name: "laps", type: .list, isNullable: false)]),
        ],
        mergedText: nil)

    /// The most spans, and the most laps, one synced timer may carry.
    static let maximumEvents = 100_000

    // MARK: - Rows

    static func read(where condition: String, _ key: SQLiteValue, in connection: Connection) throws -> SyncedKind.Stored? {
        guard let id = try connection.queryFirst("SELECT id FROM timers WHERE \(condition)", arguments: [key], map: {
            $0.int64(0)
        }) else { return nil }
        let timer = try TimerStore.load(id: id, from: connection)
        var todo: String?
        if let todoID = timer.todoID {
            todo = try connection.queryFirst("SELECT uid FROM todos WHERE id = ?", todoID) { $0.optionalString(0) } ?? nil
        } else {
            // A link to a to-do not here yet (it comes in a later page) is
            // the timer's value all the same: not a change made here.
            todo = try connection.queryFirst("SELECT todo_uid FROM sync_timer_links WHERE timer_uid = ?", timer.uid) {
                $0.string(0)
            }
        }
        return SyncedKind.Stored(id: id, uid: timer.uid, rev: timer.rev, updatedAt: timer.updatedAt,
                                 values: values(of: timer, todo: todo))
    }

    /// Writes the timer with `uid` as `values` say, its spans and laps
    /// replaced; returns its rev afterwards.
    static func write(uid: String, _ values: SyncedKind.Values, in connection: Connection) throws -> Int64 {
        let timer = try record(from: values.columns)
        let todoUID = values.columns["todo"]?.textValue
        let todoID = try todoUID.flatMap { todo in
            try connection.queryFirst("SELECT id FROM todos WHERE uid = ?", todo) { $0.int64(0) }
        }
        let id: Int64
        if let existing = try connection.queryFirst("SELECT id FROM timers WHERE uid = ?", uid, map: { $0.int64(0) }) {
            try connection.execute("DELETE FROM timer_spans WHERE timer_id = ?", existing)
            try connection.execute("DELETE FROM timer_laps WHERE timer_id = ?", existing)
            try connection.execute("""
                UPDATE timers SET kind = ?, label = ?, duration = ?, state = ?, created_at = ?, ended_at = ?,
                    todo_id = ?, seen_at = ? WHERE id = ?
                """, timer.kind.rawValue, timer.label, timer.duration, timer.state.rawValue,
                timer.createdAt.secondsSince1970, timer.endedAt?.secondsSince1970, todoID,
                timer.seenAt?.secondsSince1970, existing)
            id = existing
        } else {
            try connection.execute("""
                INSERT INTO timers (uid, kind, label, duration, state, created_at, ended_at, todo_id, seen_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, uid, timer.kind.rawValue, timer.label, timer.duration, timer.state.rawValue,
                timer.createdAt.secondsSince1970, timer.endedAt?.secondsSince1970, todoID, timer.seenAt?.secondsSince1970)
            id = connection.lastInsertRowID
        }
        for (position, span) in timer.spans.enumerated() {
            try connection.execute("""
                INSERT INTO timer_spans (timer_id, position, start_wall, start_boot, start_boot_id, end_wall, end_boot, end_boot_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, id, position, span.start.wall.secondsSince1970, span.start.boot, span.start.bootID,
                span.end?.wall.secondsSince1970, span.end?.boot, span.end?.bootID)
        }
        for lap in timer.laps {
            try connection.execute(
                "INSERT INTO timer_laps (timer_id, number, elapsed, is_estimated, recorded_at) VALUES (?, ?, ?, ?, ?)",
                id, lap.number, lap.elapsed, lap.isEstimated, lap.recordedAt.secondsSince1970)
        }
        try connection.execute("DELETE FROM sync_timer_links WHERE timer_uid = ?", uid)
        if let todoUID, todoID == nil {
            try connection.execute("INSERT INTO sync_timer_links (timer_uid, todo_uid) VALUES (?, ?)", uid, todoUID)
        }
        return try connection.queryFirst("SELECT rev FROM timers WHERE id = ?", id) { $0.int64(0) } ?? 0
    }

    /// Ties timers to the to-dos they name that have arrived since (pages
    /// come in the hub's order, not in the order of links). The tie is no
    /// change made here: a record that was current stays current.
    static func tiePendingLinks(in connection: Connection) throws {
        let found = try connection.query("""
            SELECT l.timer_uid, t.id, m.rev FROM sync_timer_links l
            JOIN todos t ON t.uid = l.todo_uid JOIN timers m ON m.uid = l.timer_uid
            """) { ($0.string(0), $0.int64(1), $0.int64(2)) }
        for (timerUID, todoID, oldRev) in found {
            try connection.execute("UPDATE timers SET todo_id = ? WHERE uid = ?", todoID, timerUID)
            try connection.execute("DELETE FROM sync_timer_links WHERE timer_uid = ?", timerUID)
            let rev = try connection.queryFirst("SELECT rev FROM timers WHERE uid = ?", timerUID) { $0.int64(0) } ?? oldRev
            try connection.execute("UPDATE sync_items SET rev = ? WHERE uid = ? AND rev = ?", rev, timerUID, oldRev)
        }
    }

    // MARK: - Values

    static func values(of timer: TimerRecord, todo: String?) -> SyncedKind.Values {
        SyncedKind.Values(columns: [
            "kind": .text(timer.kind.rawValue), "duration": timer.duration.map(SQLiteValue.real) ?? .null,
            "created_at": .real(timer.createdAt.secondsSince1970), "label": timer.label.map(SQLiteValue.text) ?? .null,
            "state": .text(timer.state.rawValue), "ended_at": timer.endedAt.map { .real($0.secondsSince1970) } ?? .null,
            "todo": todo.map(SQLiteValue.text) ?? .null, "seen_at": timer.seenAt.map { .real($0.secondsSince1970) } ?? .null,
            "spans": .text(json(timer.spans).serialized), "laps": .text(json(timer.laps).serialized),
        ], tags: [])
    }

    /// The timer `columns` describe (id 0, no uid): what a write stores and
    /// what the merge reasons about.
    static func record(from columns: [String: SQLiteValue]) throws -> TimerRecord {
        func number(_ name: String) -> Double? {
            switch columns[name] ?? .null {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
        guard let kind = TimerKind(rawValue: columns["kind"]?.textValue ?? ""),
              let state = TimerState(rawValue: columns["state"]?.textValue ?? "") else {
            throw MemoError(.badInput, en: "a timer's kind is countdown or stopwatch, its state one of "
                                + TimerState.allCases.map(\.rawValue).joined(separator: ", "),
                            ko: "타이머의 kind는 countdown 또는 stopwatch이고 state는 "
                                + TimerState.allCases.map(\.rawValue).joined(separator: ", ") + " 중 하나입니다")
        }
        return TimerRecord(id: 0, kind: kind, label: columns["label"]?.textValue, duration: number("duration"),
                           state: state, createdAt: Timestamp(secondsSince1970: number("created_at") ?? 0),
                           endedAt: number("ended_at").map(Timestamp.init(secondsSince1970:)),
                           spans: try spans(columns["spans"]?.textValue ?? "[]"),
                           laps: try laps(columns["laps"]?.textValue ?? "[]"),
                           seenAt: number("seen_at").map(Timestamp.init(secondsSince1970:)))
    }

    /// Refuses a timer no sequence of actions could make: what a device
    /// sends must be a timer every front end can show and act on.
    static func validate(_ columns: [String: SQLiteValue]) throws {
        let timer = try record(from: columns)
        if let label = timer.label, try TimerRecord.label(from: label) != label {
            throw MemoError(.badInput, en: "a timer's label is one trimmed line of at most \(TimerRecord.maximumLabelLength) characters",
                            ko: "타이머 이름은 앞뒤 공백이 없는 한 줄, 최대 \(TimerRecord.maximumLabelLength)자입니다")
        }
        if let duration = timer.duration, !TimerRecord.isValidDuration(duration) {
            throw MemoError(.badInput, en: "a countdown's duration is out of range", ko: "카운트다운 길이가 범위를 벗어났습니다")
        }
        if let todo = columns["todo"]?.textValue, !UUID4.isWellFormed(todo) {
            throw MemoError(.badInput, en: "a timer's todo is a to-do's uid", ko: "타이머의 todo는 할 일의 uid입니다")
        }
        let problems = timer.consistencyProblems
        guard problems.isEmpty else {
            throw MemoError(.badInput, en: "not a timer memoapp can keep: " + problems.joined(separator: "; "),
                            ko: "memoapp이 보관할 수 없는 타이머입니다: " + problems.joined(separator: "; "))
        }
    }

    // MARK: - Spans and laps on the wire

    /// A pushed list (`spans` or `laps`), checked and written in the one
    /// canonical form values compare by.
    static func canonicalList(_ name: String, _ reader: JSONReader) throws -> String {
        let elements = try reader.elements()
        guard elements.count <= maximumEvents else {
            throw MemoError(.tooLarge, en: "a timer carries at most \(maximumEvents) \(name)",
                            ko: "타이머의 \(name)은(는) 최대 \(maximumEvents)개입니다")
        }
        if name == "spans" {
            return json(try elements.map { element in
                try element.refuseMembers(except: ["start", "end"])
                let end = try element.member("end")
                return RunSpan(start: try reading(element.required("start")),
                               end: try end.flatMap { $0.isNull ? nil : try reading($0) })
            }).serialized
        }
        return json(try elements.enumerated().map { offset, element in
            try element.refuseMembers(except: ["elapsed", "estimated", "at"])
            let elapsed = try element.double("elapsed")
            guard TimerRecord.isValidElapsed(elapsed) else {
                throw MemoError(.badInput, en: "a lap's elapsed time is out of range", ko: "랩 시간이 범위를 벗어났습니다")
            }
            return Lap(number: offset + 1, elapsed: elapsed, isEstimated: try element.bool("estimated"),
                       recordedAt: try wall(element.double("at")))
        }).serialized
    }

    static func json(_ spans: [RunSpan]) -> JSON {
        .array(spans.map { .object([("start", json($0.start)), ("end", $0.end.map(json) ?? .null)]) })
    }

    static func json(_ laps: [Lap]) -> JSON {
        .array(laps.map {
            .object([("elapsed", .double($0.elapsed)), ("estimated", .bool($0.isEstimated)),
                     ("at", .double($0.recordedAt.secondsSince1970))])
        })
    }

    static func spans(_ text: String) throws -> [RunSpan] {
        try JSONReader(parsing: Array(text.utf8)).elements().map { element in
            let end = try element.member("end")
            return RunSpan(start: try reading(element.required("start")), end: try end.flatMap { $0.isNull ? nil : try reading($0) })
        }
    }

    static func laps(_ text: String) throws -> [Lap] {
        try JSONReader(parsing: Array(text.utf8)).elements().enumerated().map { offset, element in
            Lap(number: offset + 1, elapsed: try element.double("elapsed"), isEstimated: try element.bool("estimated"),
                recordedAt: try wall(element.double("at")))
        }
    }

    private static func json(_ reading: ClockReading) -> JSON {
        .object([("wall", .double(reading.wall.secondsSince1970)), ("boot", .double(reading.boot)),
                 ("boot_id", .string(reading.bootID))])
    }

    private static func reading(_ reader: JSONReader) throws -> ClockReading {
        try reader.refuseMembers(except: ["wall", "boot", "boot_id"])
        let boot = try reader.double("boot"), bootID = try reader.string("boot_id")
        guard TimerRecord.isValidBootClock(boot), TimerRecord.isValidBootID(bootID) else {
            throw MemoError(.badInput, en: "a clock reading's boot clock or boot id is out of range",
                            ko: "시계 값의 boot 또는 boot_id가 범위를 벗어났습니다")
        }
        return ClockReading(wall: try wall(reader.double("wall")), boot: boot, bootID: bootID)
    }

    private static func wall(_ seconds: Double) throws -> Timestamp {
        guard seconds.isFinite, abs(seconds) < 1e11 else {
            throw MemoError(.badInput, en: "a time memoapp cannot keep", ko: "memoapp이 보관할 수 없는 시각입니다")
        }
        return Timestamp(secondsSince1970: seconds)
    }
}
