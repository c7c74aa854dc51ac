import MemoCore
import SQLite

/// What a step left behind, so that its undo can tell whether anyone changed
/// it since.
///
/// The triggers log what a step replaced: a new row's key, an old row whole.
/// Reverting from that alone writes the old row back whatever the row holds
/// now, so a change made since by a writer outside the history (the HTTP API,
/// another tool) was overwritten without a word: a to-do renamed in the
/// terminal, then renamed on the phone, went back to its first name when the
/// terminal's rename was undone.
///
/// So when a step ends, every row it inserted or updated that is still there
/// is logged once more as it is then, operation `after`. An undo compares
/// each with the live row before it reverts anything, and refuses
/// (`invalid_state`, nothing changed) when one differs or is gone. Steps undone
/// after it were reverted to exactly what it left, so they do not count as
/// changes. A row the step deleted needs no image: writing it back fails
/// on its key if someone made it again.
///
/// Timers are not imaged: their rows move with time, whoever looks settles a
/// countdown that ran out (its state, its end, its open span) and marks it
/// seen, none of it inside a step. Their undo writes back what the step
/// replaced, as before.
///
/// A step of more than `largestImagedStep` logged rows (an import into a
/// home that had items) keeps no images: copying every imported row again
/// would double the import's writes. Its undo deletes what it added and
/// writes back what it replaced, as before.
extension UndoHistory {
    static let largestImagedStep = 10_000

    /// The logged tables whose rows only their users' changes change.
    static let imagedTables: Set<String> = [
        "todos", "todo_tags", "memos", "memo_tags", "voice_memos", "voice_memo_tags", "voice_memo_peaks",
    ]

    /// Logs the images of step `step`'s inserted and updated rows, inside the
    /// recording transaction, after the body's last write. Returns whether
    /// the step logged any row at all.
    func recordAfterImages(of step: Int64) throws -> Bool {
        // One read tells both the step's size (a bounded count) and which
        // tables it inserted into or updated: each statement prepared is a
        // good part of a small command's cost.
        var logged = 0
        var operations: [String: Set<String>] = [:]
        try connection.forEachRow("SELECT table_name, operation FROM undo_rows WHERE step = ? LIMIT ?",
                                  arguments: [.integer(step), .integer(Int64(UndoHistory.largestImagedStep + 1))]) { row in
            logged += 1
            let operation = row.string(1)
            if operation == "insert" || operation == "update" { operations[row.string(0), default: []].insert(operation) }
            return true
        }
        guard logged <= UndoHistory.largestImagedStep else { return true }
        for (table, made) in operations.sorted(by: { $0.key < $1.key }) where UndoHistory.imagedTables.contains(table) {
            let columns = try UndoSchema.columns(of: table, in: connection)
            guard !columns.isEmpty, columns.count <= UndoSchema.valueColumns else { continue }
            let keys = columns.filter(\.isKey)
            // An insert logged the key alone (v1…); an update the old row, the
            // key at its columns' places. Keys never change.
            var sources: [String] = []
            if made.contains("insert") {
                sources.append("SELECT \(commaList(UndoSchema.valueNames.prefix(keys.count))) FROM undo_rows "
                               + "WHERE step = ?1 AND table_name = ?2 AND operation = 'insert'")
            }
            if made.contains("update") {
                let updatedKeys = commaList(columns.indices.filter { columns[$0].isKey }.map { UndoSchema.valueNames[$0] })
                sources.append("SELECT \(updatedKeys) FROM undo_rows WHERE step = ?1 AND table_name = ?2 AND operation = 'update'")
            }
            try connection.execute("""
                INSERT INTO undo_rows (step, table_name, operation, value_count, \
                \(commaList(UndoSchema.valueNames.prefix(columns.count))))
                SELECT ?1, ?2, 'after', \(columns.count), \(commaList(columns.map { quoted($0.name) }))
                FROM \(quoted(table)) WHERE (\(commaList(keys.map { quoted($0.name) }))) IN (\(sources.count == 1 ? sources[0] : sources[0] + " UNION " + sources[1]))
                """, step, table)
        }
        return logged > 0
    }

    /// `a, b, c`. Appended here rather than by `joined(separator:)`, which
    /// this build calls unspecialized: 140,000 instructions for the five
    /// lists of a step's images, more than a percent of a whole `todo add`.
    private func commaList(_ items: some Sequence<String>) -> String {
        var list = ""
        for item in items {
            if !list.isEmpty { list += ", " }
            list += item
        }
        return list
    }

    /// Checks an `after` row against the live row it images: the same
    /// values in the columns it holds (a column a later migration added is
    /// not compared), or the step's undo is refused. The revision is not
    /// compared: undoing the steps after this one gave the row new revs
    /// while putting back exactly what this step left, and a change put
    /// back by hand leaves the row as it was in all that a person sees.
    func checkUnchanged(_ values: [SQLiteValue], count: Int, table: String, of step: UndoStep) throws {
        let columns = try UndoSchema.columns(of: table, in: connection)
        guard count <= columns.count else { throw UndoHistory.damaged(step) }
        let imaged = Array(columns.prefix(count))
        let keyPlaces = imaged.indices.filter { imaged[$0].isKey }
        guard keyPlaces.count == columns.filter(\.isKey).count else { throw UndoHistory.damaged(step) }
        let live = try connection.queryFirst("""
            SELECT \(imaged.map { quoted($0.name) }.joined(separator: ", ")) FROM \(quoted(table))
            WHERE \(keyPlaces.map { "\(quoted(imaged[$0].name)) = ?" }.joined(separator: " AND "))
            """, arguments: keyPlaces.map { values[$0] }) { row in (0..<count).map { row.value($0) } }
        let compared = imaged.indices.filter { imaged[$0].name != "rev" }
        guard let live, compared.allSatisfy({ live[$0] == values[$0] }) else { throw UndoHistory.changedSince(step) }
    }
}
