import MemoCore
import SQLite

/// Mapping between `TimerRecord` and the three timers tables.
extension TimerStore {
    /// One timer with its spans and laps.
    /// - Throws: `MemoError(.notFound)`; `MemoError(.storage)` for a row no
    ///   sequence of commands could have written (a damaged database).
    func load(id: Int64) throws -> TimerRecord {
        try TimerStore.load(id: id, from: connection)
    }

    /// `load(id:)` on any connection (the archive reads timers without a clock).
    public static func load(id: Int64, from connection: Connection) throws -> TimerRecord {
        let row = try connection.queryFirst(
            "SELECT kind, label, duration, state, created_at, ended_at, uid, todo_id, seen_at, rev FROM timers WHERE id = ?", id
        ) { row in
            (kind: row.string(0), label: row.optionalString(1), duration: row.optionalDouble(2),
             state: row.string(3), createdAt: row.double(4), endedAt: row.optionalDouble(5), uid: row.string(6),
             todoID: row.isNull(7) ? nil : row.int64(7), seenAt: row.optionalDouble(8), rev: row.int64(9))
        }
        guard let row else {
            throw MemoError(.notFound, en: "No timer with id \(id).", ko: "\(id)번 타이머가 없습니다.")
        }
        guard let kind = TimerKind(rawValue: row.kind), let state = TimerState(rawValue: row.state) else {
            throw damaged(id, "kind '\(row.kind)', state '\(row.state)'")
        }
        let spans = try connection.query("""
            SELECT start_wall, start_boot, start_boot_id, end_wall, end_boot, end_boot_id
            FROM timer_spans WHERE timer_id = ? ORDER BY position
            """, id) { row in
            RunSpan(start: ClockReading(wall: Timestamp(secondsSince1970: row.double(0)), boot: row.double(1),
                                        bootID: row.string(2)),
                    end: row.isNull(3) ? nil
                        : ClockReading(wall: Timestamp(secondsSince1970: row.double(3)), boot: row.double(4),
                                       bootID: row.string(5)))
        }
        let laps = try connection.query(
            "SELECT number, elapsed, is_estimated, recorded_at FROM timer_laps WHERE timer_id = ? ORDER BY number", id
        ) { row in
            Lap(number: row.int(0), elapsed: row.double(1), isEstimated: row.bool(2),
                recordedAt: Timestamp(secondsSince1970: row.double(3)))
        }
        var timer = TimerRecord(id: id, uid: row.uid, kind: kind, label: row.label, duration: row.duration, state: state,
                                createdAt: Timestamp(secondsSince1970: row.createdAt),
                                endedAt: row.endedAt.map { Timestamp(secondsSince1970: $0) },
                                spans: spans, laps: laps, todoID: row.todoID,
                                seenAt: row.seenAt.map(Timestamp.init(secondsSince1970:)))
        timer.rev = row.rev
        let problems = timer.consistencyProblems
        guard problems.isEmpty else { throw damaged(id, problems.joined(separator: "; ")) }
        return timer
    }

    /// Saves a new timer with its uid (a new one when it has none); returns its id.
    /// - Throws: `.duplicate` when another timer has the uid.
    func insert(_ timer: TimerRecord) throws -> Int64 {
        try TimerStore.insert(timer, keepingID: false, into: connection)
    }

    /// Saves a new timer with its spans and laps: under its own id when
    /// `keepingID` (a restore), else under a new one. Returns the id.
    static func insert(_ timer: TimerRecord, keepingID: Bool, into connection: Connection) throws -> Int64 {
        let uid = timer.uid.isEmpty ? UUID4.random() : timer.uid
        do {
            try connection.execute("""
                INSERT INTO timers (id, uid, kind, label, duration, state, created_at, ended_at, todo_id, seen_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, keepingID ? timer.id : nil, uid, timer.kind.rawValue, timer.label, timer.duration,
                timer.state.rawValue, timer.createdAt.secondsSince1970, timer.endedAt?.secondsSince1970, timer.todoID,
                timer.seenAt?.secondsSince1970)
        } catch let error as SQLiteError where error.isUniqueViolation(table: "timers", column: "uid") {
            throw MemoError(.duplicate, en: "a timer with uid \(uid) already exists",
                            ko: "uid가 \(uid)인 타이머가 이미 있습니다")
        }
        let id = connection.lastInsertRowID
        var saved = timer
        saved.id = id
        try writeChildren(of: saved, after: TimerRecord(id: id, kind: timer.kind, label: nil, duration: nil,
                                                         state: timer.state, createdAt: timer.createdAt,
                                                         endedAt: nil, spans: [], laps: []), in: connection)
        return id
    }

    /// Writes what changed from `old` to `new`: the timer row, closed or new
    /// spans, new laps. Spans and laps are only ever appended or closed, so
    /// one action writes a row or two however long the timer's history is.
    func save(_ new: TimerRecord, replacing old: TimerRecord) throws {
        precondition(new.id == old.id && new.id != 0, "save replaces the same stored timer")
        if new.state != old.state || new.endedAt != old.endedAt {
            try connection.execute("UPDATE timers SET state = ?, ended_at = ? WHERE id = ?",
                                   new.state.rawValue, new.endedAt?.secondsSince1970, new.id)
        }
        try TimerStore.writeChildren(of: new, after: old, in: connection)
    }

    // MARK: - Private

    private static func writeChildren(of new: TimerRecord, after old: TimerRecord, in connection: Connection) throws {
        precondition(new.spans.count >= old.spans.count && new.laps.count >= old.laps.count,
                     "spans and laps are append-only")
        // Close spans before inserting new ones: the partial unique index
        // allows one open span per timer at every statement, not just at commit.
        for (position, span) in new.spans.enumerated() where position < old.spans.count && span != old.spans[position] {
            try connection.execute("""
                UPDATE timer_spans SET start_wall = ?, start_boot = ?, start_boot_id = ?,
                    end_wall = ?, end_boot = ?, end_boot_id = ?
                WHERE timer_id = ? AND position = ?
                """, span.start.wall.secondsSince1970, span.start.boot, span.start.bootID,
                span.end?.wall.secondsSince1970, span.end?.boot, span.end?.bootID, new.id, position)
        }
        for (position, span) in new.spans.enumerated() where position >= old.spans.count {
            try connection.execute("""
                INSERT INTO timer_spans (timer_id, position, start_wall, start_boot, start_boot_id,
                    end_wall, end_boot, end_boot_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, new.id, position, span.start.wall.secondsSince1970, span.start.boot, span.start.bootID,
                span.end?.wall.secondsSince1970, span.end?.boot, span.end?.bootID)
        }
        for lap in new.laps.dropFirst(old.laps.count) {
            try connection.execute(
                "INSERT INTO timer_laps (timer_id, number, elapsed, is_estimated, recorded_at) VALUES (?, ?, ?, ?, ?)",
                new.id, lap.number, lap.elapsed, lap.isEstimated, lap.recordedAt.secondsSince1970)
        }
    }

    private static func damaged(_ id: Int64, _ detail: String) -> MemoError {
        MemoError(.storage, en: "Timer \(id) in the database is damaged (\(detail)).",
                  ko: "데이터베이스의 \(id)번 타이머가 손상되었습니다 (\(detail)).")
    }
}
