import MemoCore
import SQLite

/// Undoing a step other than the newest, and emptying the history.
extension UndoHistory {
    /// An item a logged row belongs to: its item table and id, or every item
    /// of the table (a restore's `empty` row).
    struct TouchedItem: Hashable {
        let table: String
        let id: SQLiteValue?
    }

    /// The item table each logged table's rows belong to. Every logged
    /// table holds its item's id in its first column, which every operation
    /// logs first (`v1`): an insert its key, an update or a delete the row.
    static let itemTableOfLoggedTable: [String: String] = [
        "todos": "todos", "todo_tags": "todos", "memos": "memos", "memo_tags": "memos",
        "voice_memos": "voice_memos", "voice_memo_tags": "voice_memos", "voice_memo_peaks": "voice_memos",
        "timers": "timers", "timer_spans": "timers", "timer_laps": "timers",
    ]

    /// Refuses (`invalid_state`, naming the newest such step) to undo `step`
    /// when any of `later` touched an item it touched: reverting it would
    /// write back values a later change already replaced, or bring back an
    /// item a later change built on.
    func checkUntouched(_ step: UndoStep, since later: [UndoStep]) throws {
        let mine = try touchedItems(of: step.id)
        for other in later.sorted(by: { $0.id > $1.id }) {
            let theirs = try touchedItems(of: other.id)
            let overlaps = theirs.contains { item in
                mine.contains(item) || mine.contains(TouchedItem(table: item.table, id: nil))
                    || (item.id == nil && mine.contains { $0.table == item.table })
            }
            if overlaps { throw UndoHistory.touchedSince(step, by: other) }
        }
    }

    /// Forgets every step and deletes the audio the history kept, now: a
    /// person removing a recording for privacy must be able to make it gone.
    /// Returns how many steps were forgotten.
    @discardableResult
    public func forgetAll() throws -> Int {
        try connection.writeTransaction {
            let count = try connection.queryFirst("SELECT count(*) FROM undo_steps") { $0.int(0) } ?? 0
            let keptNames = try connection.query("SELECT kept_name FROM undo_files") { $0.string(0) }
            try connection.execute("DELETE FROM undo_rows")
            try connection.execute("DELETE FROM undo_files")
            try connection.execute("DELETE FROM undo_steps")
            try removeKeptFilesAfterCommit(keptNames)
            return count
        }
    }

    // MARK: - Private

    private func touchedItems(of step: Int64) throws -> Set<TouchedItem> {
        var items = Set<TouchedItem>()
        try connection.forEachRow("SELECT table_name, operation, v1 FROM undo_rows WHERE step = ?",
                                  arguments: [.integer(step)]) { row in
            let table = row.string(0)
            let itemTable = UndoHistory.itemTableOfLoggedTable[table] ?? table
            items.insert(TouchedItem(table: itemTable, id: row.string(1) == "empty" ? nil : row.value(2)))
            return true
        }
        return items
    }

    static func touchedSince(_ step: UndoStep, by later: UndoStep) -> MemoError {
        MemoError(.invalidState,
                  en: "cannot undo “\(step.description)”: a later change, “\(later.description)” (step \(later.id)), "
                      + "touched the same items; undo that first. Nothing was changed",
                  ko: "“\(step.description)”을(를) 되돌릴 수 없습니다: 나중 변경 “\(later.description)”"
                      + "(\(later.id)번)이 같은 항목을 바꿨습니다. 그것을 먼저 되돌리세요. 아무것도 바꾸지 않았습니다")
    }
}
