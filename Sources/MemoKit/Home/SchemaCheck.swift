import MemoCore
import SQLite

/// Whether a database's schema is exactly what memoapp's own migrations make:
/// every table, index, trigger and view, by type, name, table and SQL.
///
/// A database from elsewhere (a backup, a copied home) is data, and its
/// schema is part of it: one trigger (`AFTER INSERT ON todos BEGIN DELETE
/// FROM memos; END`) would run inside memoapp's own transactions from then
/// on, and `PRAGMA integrity_check` finds nothing wrong with it. So the
/// schema is compared with a reference: the migrations this database records
/// as applied, in the order it records them, applied to an empty database in
/// memory. A backup from an older memoapp is thus held to what that older
/// memoapp made (the migrations it lacks are applied after the restore).
public enum SchemaCheck {
    /// One object of `sqlite_master`.
    public struct Object: Hashable, Sendable {
        /// `table`, `index`, `trigger` or `view`.
        public let type: String
        public let name: String
        /// The table it belongs to (itself for a table).
        public let table: String
        /// Its `CREATE` statement with runs of white space outside quotes
        /// made one space; nil for the indexes SQLite makes itself.
        public let sql: String?
    }

    /// How the database differs from the reference.
    public enum Difference: Hashable, Sendable {
        /// Not something memoapp makes (a planted trigger, a view, a table).
        case unexpected(Object)
        /// memoapp made it and it is gone.
        case missing(Object)
        /// The name is memoapp's, the definition is not.
        case altered(Object)

        public var object: Object {
            switch self {
            case let .unexpected(object), let .missing(object), let .altered(object): return object
            }
        }

        /// `trigger "evil" on todos is not one memoapp makes`, for messages.
        public var description: Localized {
            let object = self.object
            let what = "\(object.type) \"\(object.name)\"" + (object.type == "table" ? "" : " on \(object.table)")
            switch self {
            case .unexpected:
                return Localized(en: "\(what) is not one memoapp makes", ko: "\(what)은(는) memoapp이 만드는 것이 아닙니다")
            case .missing:
                return Localized(en: "\(what) is missing", ko: "\(what)이(가) 없습니다")
            case .altered:
                return Localized(en: "\(what) is not defined as memoapp defines it",
                                 ko: "\(what)의 정의가 memoapp의 것과 다릅니다")
            }
        }
    }

    /// The differences between `connection`'s schema and what memoapp's
    /// migrations recorded in it make; empty when they are the same. A
    /// migration this memoapp does not know is left to the caller (a newer
    /// memoapp's database is refused before this is asked).
    public static func differences(in connection: Connection) throws -> [Difference] {
        let applied = try Schema.migrator.appliedNames(in: connection)
        let actual = try objects(in: connection)
        let expected = try referenceObjects(applying: applied)
        let actualByName = Dictionary(actual.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let expectedByName = Dictionary(expected.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [Difference] = []
        for object in actual {
            guard let reference = expectedByName[object.name] else {
                if !isSQLiteStatistics(object) { differences.append(.unexpected(object)) }
                continue
            }
            if reference != object { differences.append(.altered(object)) }
        }
        for object in expected where actualByName[object.name] == nil {
            differences.append(.missing(object))
        }
        return differences
    }

    /// What memoapp's migrations named `applied` make, applied in that order
    /// to a new database in memory.
    static func referenceObjects(applying applied: [String]) throws -> [Object] {
        let known = Dictionary(Schema.migrator.migrations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var migrator = Migrator()
        migrator.register(applied.compactMap { known[$0] })
        MemoDatabase.prepareProcess()
        let reference = try Connection.inMemory()
        if !applied.isEmpty { try migrator.apply(to: reference) }
        return try objects(in: reference)
    }

    /// Every object of the main schema, in `sqlite_master`'s order.
    static func objects(in connection: Connection) throws -> [Object] {
        try connection.query("SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY rowid") {
            Object(type: $0.string(0), name: $0.string(1), table: $0.string(2), sql: $0.optionalString(3).map(normalized))
        }
    }

    /// `sql` with the white space outside quotes ('…', "…", `…`, […]) laid
    /// out one way: none at either end or beside `(`, `)`, `,`, `;` and
    /// `=`, one space elsewhere. The same statement however it was typed.
    static func normalized(_ sql: String) -> String {
        let tight: Set<Character> = ["(", ")", ",", ";", "="]
        var result = ""
        var closing: Character?
        var pendingSpace = false
        for character in sql {
            if let quote = closing {
                result.append(character)
                if character == quote { closing = nil }
                continue
            }
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace, !tight.contains(character), let last = result.last, !tight.contains(last) {
                result.append(" ")
            }
            pendingSpace = false
            result.append(character)
            switch character {
            case "'", "\"", "`": closing = character
            case "[": closing = "]"
            default: break
            }
        }
        return result
    }

    // MARK: - Private

    /// `sqlite_stat1` and its kin hold what `ANALYZE` measured: SQLite's own,
    /// read only by its query planner.
    private static func isSQLiteStatistics(_ object: Object) -> Bool {
        object.type == "table" && object.name.hasPrefix("sqlite_stat")
    }
}
