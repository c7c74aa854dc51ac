import SQLite

/// Reading the change log from where a reader left it.
extension ChangeLog {
    /// One entry of the log. `kind` is nil for an `everything` entry (and
    /// for one a damaged database holds, which is read as `everything`).
    public struct Entry: Equatable, Sendable {
        public let seq: Int64
        public let kind: Kind?
        public let itemID: Int64
        public let action: Action
    }

    /// Where a reader stands: the newest entry it has seen, or nil when the
    /// log was empty. The entry itself is remembered, not only its number:
    /// a restore replaces the log with the backup's, whose numbers may reach
    /// as far, and a different entry under the same number tells it.
    public struct Position: Equatable, Sendable {
        public let newest: Entry?

        /// Before the first entry: where a reader of an empty log stands.
        public static let beforeFirstEntry = Position(newest: nil)
    }

    /// What was logged after a position.
    public enum Reading: Equatable, Sendable {
        /// These changes, oldest first (none when nothing was logged), and
        /// the position after them.
        case changes([Entry], Position)
        /// The changes cannot be told one by one: more than `limit`, a bulk
        /// write (`everything`), entries pruned before they were read, or a
        /// log replaced by a restore. The reader starts again from the
        /// current state, at the position given (the newest entry).
        case startAgain(Position)
    }

    /// The newest entry: all a reader needs to start (one row, however many
    /// items there are).
    public static func newestPosition(in connection: Connection) throws -> Position {
        Position(newest: try connection.queryFirst(
            "SELECT seq, kind, item_id, action FROM item_changes ORDER BY seq DESC LIMIT 1", map: entry))
    }

    /// The entries after `position`, read by the primary key from there:
    /// at most `limit` + 2 rows, whatever the log holds.
    public static func changes(after position: Position, limit: Int, in connection: Connection) throws -> Reading {
        let from = position.newest?.seq ?? 0
        var rows = try connection.query("""
            SELECT seq, kind, item_id, action FROM item_changes WHERE seq >= ? ORDER BY seq LIMIT ?
            """, from, limit + 2, map: entry)[...]
        if let remembered = position.newest {
            guard rows.first == remembered else { return .startAgain(try newestPosition(in: connection)) }
            rows = rows.dropFirst()
        }
        // Numbers follow one another (a new row's is the largest plus one,
        // the log is only ever cut at its old end): a gap means entries
        // were pruned, or an empty log was replaced by a restore.
        if let first = rows.first, first.seq != from + 1 { return .startAgain(try newestPosition(in: connection)) }
        if rows.count > limit || rows.contains(where: { $0.action == .everything }) {
            return .startAgain(try newestPosition(in: connection))
        }
        return .changes(Array(rows), Position(newest: rows.last ?? position.newest))
    }

    // MARK: - Private

    private static func entry(_ row: Row) -> Entry {
        let kind = Kind(rawValue: row.string(1))
        let action = kind == nil ? .everything : Action(rawValue: row.string(3)) ?? .everything
        return Entry(seq: row.int64(0), kind: kind, itemID: row.int64(2), action: action)
    }
}
