#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// One change that can be undone: what the user did (the front end's words
/// for it, such as the command line), where, and when.
public struct UndoStep: Equatable, Sendable {
    public let id: Int64
    public let description: String
    public let createdAt: Timestamp
    /// The front end that made it.
    public let origin: ChangeOrigin
}

/// The front end a change came through: every one shares the data home's
/// one undo history, and `memoapp undo` says whose change it reverted.
public enum ChangeOrigin: String, CaseIterable, Sendable {
    /// A `memoapp` command.
    case cli
    /// The HTTP API with a token (a script, another app).
    case api
    /// The web page, signed in with its session.
    case web
}

/// The undo history of one database: the last `limit` changes, newest last,
/// each reverted whole by `undo()`, again and again back through the history.
///
/// A change is recorded by running it inside `record(_:_:)`: the step, the
/// triggers' log of every row it wrote (see `UndoSchema`) and the change
/// itself commit in one transaction, or none of them does. Writes made outside
/// `record` are not in the history; an undo that meets a row they changed
/// since is refused (`invalid_state`) and changes nothing: the rows a step
/// left are imaged for that (see `UndoHistory+AfterImages`).
///
/// Voice memos' audio is kept beside the rows: the file a removal or a trim
/// replaced is linked into `voice/.undo/` in the recording transaction, put
/// back by the undo, and removed once its step leaves the history.
public final class UndoHistory {
    /// How many changes the history holds unless told otherwise.
    public static let defaultLimit = 20
    /// The largest limit accepted: the history is for going back a few steps.
    public static let largestLimit = 1000

    public let connection: Connection
    /// The voice library folder (`voice/` in the data home).
    public let voiceDirectory: String
    public let limit: Int
    let clock: WallClock
    var hasSweptKeptFiles = false
    var recordingStep: Int64?
    /// The step the last `record` kept; nil when it changed nothing.
    public private(set) var lastRecordedStep: Int64?

    public init(connection: Connection, voiceDirectory: String, clock: WallClock = SystemWallClock(),
                limit: Int = UndoHistory.defaultLimit) {
        precondition((1...UndoHistory.largestLimit).contains(limit), "undo history limit \(limit) out of range")
        self.connection = connection
        self.voiceDirectory = voiceDirectory
        self.clock = clock
        self.limit = limit
    }

    /// Runs `body` as one step of the history, described as `description`,
    /// in one write transaction with the step. A body that changes nothing
    /// leaves no step; the oldest steps beyond `limit` are forgotten.
    public func record<T>(_ description: String, origin: ChangeOrigin = .cli, _ body: () throws -> T) throws -> T {
        precondition(recordingStep == nil, "undo steps do not nest")
        return try connection.writeTransaction {
            try connection.execute("INSERT INTO undo_steps (description, created_at, origin) VALUES (?, ?, ?)",
                                   description, clock.now().secondsSince1970, origin.rawValue)
            let step = connection.lastInsertRowID
            try connection.execute("INSERT INTO undo_recording (step) VALUES (?)", step)
            recordingStep = step
            defer { recordingStep = nil }
            let result = try body()
            try connection.execute("DELETE FROM undo_recording")
            // The images' read of the step's rows also tells whether it has
            // any; only a step without rows asks about kept audio.
            let hasRows = try recordAfterImages(of: step)
            let hasChanges = try hasRows || connection.queryFirst(
                "SELECT EXISTS (SELECT 1 FROM undo_files WHERE step = ?)", step) { $0.bool(0) } ?? false
            lastRecordedStep = hasChanges ? step : nil
            if hasChanges {
                try forgetSteps(upTo: step - Int64(limit))
            } else {
                try connection.execute("DELETE FROM undo_steps WHERE id = ?", step)
            }
            return result
        }
    }

    /// The steps an undo would revert, newest first.
    public func steps() throws -> [UndoStep] {
        try connection.query("SELECT id, description, created_at, origin FROM undo_steps ORDER BY id DESC") {
            UndoStep(id: $0.int64(0), description: $0.string(1), createdAt: Timestamp(secondsSince1970: $0.double(2)),
                     origin: ChangeOrigin(rawValue: $0.string(3)) ?? .cli)
        }
    }

    /// Reverts the newest step (or step `id`) and returns it; the one before
    /// it is then the newest. Throws `invalid_state` when the history is
    /// empty, when a row the step changed was changed since by a write
    /// outside the history, or, for an older step, when a later step touched
    /// any of its items (naming that step); `not_found` for an `id` the
    /// history does not hold.
    @discardableResult
    public func undo(step id: Int64? = nil) throws -> UndoStep {
        try connection.writeTransaction {
            let steps = try steps()
            guard let newest = steps.first else { throw UndoHistory.nothingToUndo }
            var step = newest
            if let id, id != newest.id {
                guard let older = steps.first(where: { $0.id == id }) else { throw UndoHistory.noSuchStep(id) }
                try checkUntouched(older, since: steps.filter { $0.id > id })
                step = older
            }
            try sweepKeptFiles()
            let audioBefore = try libraryNames()
            // Rows come back in the reverse of the order they changed, a parent
            // possibly after its children: keys are checked at the commit. The
            // step's `after` images were logged last, so they are checked
            // before anything is reverted.
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            let rows = try connection.query("""
                SELECT table_name, operation, value_count, \(UndoSchema.valueNames.joined(separator: ", "))
                FROM undo_rows WHERE step = ? ORDER BY id DESC
                """, step.id) { row in
                LoggedRow(table: row.string(0), operation: row.string(1), count: row.int(2),
                          values: (0..<UndoSchema.valueColumns).map { row.value(3 + $0) })
            }
            for row in rows { try revert(row, of: step) }
            let audioAfter = try libraryNames()
            try restoreAudio(of: step, named: audioAfter.subtracting(audioBefore),
                             dropping: audioBefore.subtracting(audioAfter))
            try deleteSteps("id = ?", step.id)
            return step
        }
    }

    static let nothingToUndo = MemoError(.invalidState, en: "there is nothing to undo", ko: "되돌릴 것이 없습니다")

    static func noSuchStep(_ id: Int64) -> MemoError {
        MemoError(.notFound, en: "the undo history has no step \(id)", ko: "되돌리기 기록에 \(id)번 단계가 없습니다")
    }

    /// The id of the step being recorded, inside `record`.
    func currentStep() -> Int64? { recordingStep }

    // MARK: - Private

    /// Forgets the steps up to id `newestForgotten`, with the audio they
    /// kept. A new step takes the next id and only the oldest are forgotten,
    /// so the new step's id less the limit leaves at most `limit` steps,
    /// found without a query: this runs in every recording command. (An
    /// older step undone by its id leaves a gap: one fewer step is kept
    /// until the gap leaves the history.)
    private func forgetSteps(upTo newestForgotten: Int64) throws {
        guard newestForgotten > 0 else { return }
        let keptNames = try connection.query("SELECT kept_name FROM undo_files WHERE step <= ?", newestForgotten) {
            $0.string(0)
        }
        try connection.execute("DELETE FROM undo_rows WHERE step <= ?", newestForgotten)
        try connection.execute("DELETE FROM undo_files WHERE step <= ?", newestForgotten)
        try connection.execute("DELETE FROM undo_steps WHERE id <= ?", newestForgotten)
        try removeKeptFilesAfterCommit(keptNames)
    }

    /// Deletes steps and everything logged for them; `condition` is on
    /// `undo_steps.id`. Explicit rather than by cascade, so that it holds
    /// with foreign keys off too.
    private func deleteSteps(_ condition: String, _ value: Int64) throws {
        try connection.execute("DELETE FROM undo_rows WHERE step IN (SELECT id FROM undo_steps WHERE \(condition))", value)
        try connection.execute("DELETE FROM undo_files WHERE step IN (SELECT id FROM undo_steps WHERE \(condition))", value)
        try connection.execute("DELETE FROM undo_steps WHERE \(condition)", value)
    }

    /// One row of `undo_rows`: what one change to one row undoes.
    private struct LoggedRow {
        let table: String
        let operation: String
        /// How many of `values` the trigger wrote (the table's width then).
        let count: Int
        let values: [SQLiteValue]
    }

    /// Writes back what one logged change replaced. The statement is built
    /// from the live table's own columns, the values are bound.
    private func revert(_ row: LoggedRow, of step: UndoStep) throws {
        guard UndoSchema.loggedTables.contains(row.table), (1...UndoSchema.valueColumns).contains(row.count)
        else { throw UndoHistory.damaged(step) }
        let columns = try UndoSchema.columns(of: row.table, in: connection)
        let keys = columns.filter(\.isKey)
        let table = quoted(row.table)
        do {
            switch row.operation {
            case "insert":
                guard row.count == keys.count else { throw UndoHistory.damaged(step) }
                try connection.execute("DELETE FROM \(table) WHERE \(condition(on: keys))",
                                       arguments: Array(row.values.prefix(keys.count)))
            case "update", "delete":
                // Columns a later migration added are not in the log: they keep
                // what they have (an update) or their default (an insert).
                guard row.count <= columns.count else { throw UndoHistory.damaged(step) }
                let logged = Array(columns.prefix(row.count))
                let values = Array(row.values.prefix(row.count))
                let keyValues = logged.indices.filter { logged[$0].isKey }.map { values[$0] }
                guard keyValues.count == keys.count else { throw UndoHistory.damaged(step) }
                if row.operation == "update" {
                    // Not the revision: the old one written back would go
                    // backwards. Logged as any change, the row takes a new
                    // one (see `Revisions`).
                    let written = logged.indices.filter { logged[$0].name != "rev" }
                    let assignments = written.map { "\(quoted(logged[$0].name)) = ?" }.joined(separator: ", ")
                    try connection.execute("UPDATE \(table) SET \(assignments) WHERE \(condition(on: keys))",
                                           arguments: written.map { values[$0] } + keyValues)
                } else {
                    let names = logged.map { quoted($0.name) }.joined(separator: ", ")
                    let placeholders = Array(repeating: "?", count: logged.count).joined(separator: ", ")
                    try connection.execute("INSERT INTO \(table) (\(names)) VALUES (\(placeholders))", arguments: values)
                }
            case "after":
                try checkUnchanged(row.values, count: row.count, table: row.table, of: step)
                return
            case "empty":
                // A restore into an empty home (see `recordAsEmptying`).
                guard row.count == 1 else { throw UndoHistory.damaged(step) }
                try empty(row.table, expected: row.values[0], of: step)
                return
            default:
                throw UndoHistory.damaged(step)
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw UndoHistory.changedSince(step)
        }
        if connection.changes == 0 { throw UndoHistory.changedSince(step) }
    }

    private func condition(on keys: [UndoSchema.Column]) -> String {
        keys.map { "\(quoted($0.name)) = ?" }.joined(separator: " AND ")
    }

    func quoted(_ name: String) -> String {
        // Names without a quote (all of memoapp's) skip the walk through
        // the name's characters: every step's after-images quote each column.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    static func changedSince(_ step: UndoStep) -> MemoError {
        MemoError(.invalidState,
                  en: "cannot undo “\(step.description)”: what it changed was changed since outside memoapp's history; nothing was changed",
                  ko: "“\(step.description)”을(를) 되돌릴 수 없습니다: 그 뒤 기록 밖에서 바뀌었습니다. 아무것도 바꾸지 않았습니다")
    }

    static func damaged(_ step: UndoStep) -> MemoError {
        MemoError(.storage, en: "the undo history of “\(step.description)” is damaged; nothing was changed",
                  ko: "“\(step.description)”의 되돌리기 기록이 손상되었습니다. 아무것도 바꾸지 않았습니다")
    }
}
