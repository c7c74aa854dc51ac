#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// One change that can be undone: what the user did (the front end's words
/// for it, such as the command line) and when.
public struct UndoStep: Equatable, Sendable {
    public let id: Int64
    public let description: String
    public let createdAt: Timestamp
}

/// The undo history of one database: the last `limit` changes, newest last,
/// each reverted whole by `undo()`, again and again back through the history.
///
/// A change is recorded by running it inside `record(_:_:)`: the step, the
/// triggers' log of every row it wrote (see `UndoSchema`) and the change
/// itself commit in one transaction, or none of them does. Writes made
/// outside `record` are not in the history; an undo that meets a row they
/// changed since is refused (`invalid_state`) and changes nothing.
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
    public func record<T>(_ description: String, _ body: () throws -> T) throws -> T {
        try connection.writeTransaction {
            let isRecording = try currentStep() != nil
            precondition(!isRecording, "undo steps do not nest")
            try connection.execute("INSERT INTO undo_steps (description, created_at) VALUES (?, ?)",
                                   description, clock.now().secondsSince1970)
            let step = connection.lastInsertRowID
            try connection.execute("INSERT INTO undo_recording (step) VALUES (?)", step)
            let result = try body()
            try connection.execute("DELETE FROM undo_recording")
            let hasChanges = try connection.queryFirst("""
                SELECT EXISTS (SELECT 1 FROM undo_changes WHERE step = ?1) OR EXISTS (SELECT 1 FROM undo_files WHERE step = ?1)
                """, step) { $0.bool(0) } ?? false
            if hasChanges {
                try forgetSteps(beyond: limit)
            } else {
                try connection.execute("DELETE FROM undo_steps WHERE id = ?", step)
            }
            return result
        }
    }

    /// The steps an undo would revert, newest first.
    public func steps() throws -> [UndoStep] {
        try connection.query("SELECT id, description, created_at FROM undo_steps ORDER BY id DESC") {
            UndoStep(id: $0.int64(0), description: $0.string(1), createdAt: Timestamp(secondsSince1970: $0.double(2)))
        }
    }

    /// Reverts the newest step and returns it; the one before it is then the
    /// newest. Throws `invalid_state` when the history is empty, or when a
    /// row the step changed was changed since by a write outside the history.
    @discardableResult
    public func undo() throws -> UndoStep {
        try connection.writeTransaction {
            guard let step = try steps().first else { throw UndoHistory.nothingToUndo }
            try sweepKeptFiles()
            let changesVoice = try connection.queryFirst(
                "SELECT EXISTS (SELECT 1 FROM undo_changes WHERE step = ? AND table_name = 'voice_memos')", step.id
            ) { $0.bool(0) } ?? false
            let audioBefore = changesVoice ? try libraryNames() : []
            // Rows come back in the reverse of the order they changed, a parent
            // possibly after its children: keys are checked at the commit.
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            let changes = try connection.query(
                "SELECT id, table_name, operation FROM undo_changes WHERE step = ? ORDER BY id DESC", step.id
            ) { (id: $0.int64(0), table: $0.string(1), operation: $0.string(2)) }
            for change in changes {
                try revert(changeID: change.id, table: change.table, operation: change.operation, step: step)
            }
            let audioAfter = changesVoice ? try libraryNames() : []
            try restoreAudio(of: step, named: audioAfter.subtracting(audioBefore),
                             dropping: audioBefore.subtracting(audioAfter))
            try deleteSteps("id = ?", step.id)
            return step
        }
    }

    static let nothingToUndo = MemoError(.invalidState, en: "there is nothing to undo", ko: "되돌릴 것이 없습니다")

    /// The id of the step being recorded, inside `record`.
    func currentStep() throws -> Int64? {
        try connection.queryFirst("SELECT step FROM undo_recording") { $0.int64(0) }
    }

    // MARK: - Private

    /// Forgets every step but the newest `count`, with the audio they kept.
    private func forgetSteps(beyond count: Int) throws {
        guard let newestForgotten = try connection.queryFirst(
            "SELECT id FROM undo_steps ORDER BY id DESC LIMIT 1 OFFSET ?", count, map: { $0.int64(0) })
        else { return }
        let keptNames = try connection.query("SELECT kept_name FROM undo_files WHERE step <= ?", newestForgotten) {
            $0.string(0)
        }
        try deleteSteps("id <= ?", newestForgotten)
        try removeKeptFilesAfterCommit(keptNames)
    }

    /// Deletes steps and everything logged for them; `condition` is on
    /// `undo_steps.id`. Explicit rather than by cascade, so that it holds
    /// with foreign keys off too.
    private func deleteSteps(_ condition: String, _ value: Int64) throws {
        try connection.execute("""
            DELETE FROM undo_values WHERE change_id IN
                (SELECT c.id FROM undo_changes c JOIN undo_steps s ON s.id = c.step WHERE s.\(condition))
            """, value)
        try connection.execute("DELETE FROM undo_changes WHERE step IN (SELECT id FROM undo_steps WHERE \(condition))", value)
        try connection.execute("DELETE FROM undo_files WHERE step IN (SELECT id FROM undo_steps WHERE \(condition))", value)
        try connection.execute("DELETE FROM undo_steps WHERE \(condition)", value)
    }

    /// Writes back what one logged change replaced. The statement is built
    /// from the live table's own columns, the values are bound.
    private func revert(changeID: Int64, table: String, operation: String, step: UndoStep) throws {
        guard UndoSchema.loggedTables.contains(table) else { throw UndoHistory.damaged(step) }
        let columns = try UndoSchema.columns(of: table, in: connection)
        var logged: [String: SQLiteValue] = [:]
        for (name, value) in try connection.query(
            "SELECT column_name, value FROM undo_values WHERE change_id = ?", changeID, map: { ($0.string(0), $0.value(1)) }) {
            logged[name] = value
        }
        let keys = columns.filter(\.isKey)
        guard !keys.isEmpty, keys.allSatisfy({ logged[$0.name] != nil }) else { throw UndoHistory.damaged(step) }
        let keyCondition = keys.map { "\(quoted($0.name)) = ?" }.joined(separator: " AND ")
        let keyValues = keys.map { logged[$0.name]! }
        let present = columns.filter { logged[$0.name] != nil }
        do {
            switch operation {
            case "insert":
                try connection.execute("DELETE FROM \(quoted(table)) WHERE \(keyCondition)", arguments: keyValues)
            case "update":
                let assignments = present.map { "\(quoted($0.name)) = ?" }.joined(separator: ", ")
                try connection.execute("UPDATE \(quoted(table)) SET \(assignments) WHERE \(keyCondition)",
                                       arguments: present.map { logged[$0.name]! } + keyValues)
            case "delete":
                let names = present.map { quoted($0.name) }.joined(separator: ", ")
                let placeholders = Array(repeating: "?", count: present.count).joined(separator: ", ")
                try connection.execute("INSERT INTO \(quoted(table)) (\(names)) VALUES (\(placeholders))",
                                       arguments: present.map { logged[$0.name]! })
            default:
                throw UndoHistory.damaged(step)
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw UndoHistory.changedSince(step)
        }
        if connection.changes == 0 { throw UndoHistory.changedSince(step) }
    }

    private func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    private static func changedSince(_ step: UndoStep) -> MemoError {
        MemoError(.invalidState,
                  en: "cannot undo “\(step.description)”: what it changed was changed since outside memoapp's history; nothing was changed",
                  ko: "“\(step.description)”을(를) 되돌릴 수 없습니다: 그 뒤 기록 밖에서 바뀌었습니다. 아무것도 바꾸지 않았습니다")
    }

    static func damaged(_ step: UndoStep) -> MemoError {
        MemoError(.storage, en: "the undo history of “\(step.description)” is damaged; nothing was changed",
                  ko: "“\(step.description)”의 되돌리기 기록이 손상되었습니다. 아무것도 바꾸지 않았습니다")
    }
}
