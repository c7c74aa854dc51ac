import MemoCore
import Notes
import SQLite

/// What sync knows of a kind of item: its table, its fields (each one or
/// more columns that change together, the unit a clock orders), the table
/// of its tags, and which field is text merged by lines. Sync reads and
/// writes these rows directly, as a backup does: a pulled change is the
/// state another device reached, not a use case to run again (finishing a
/// recurring to-do that arrives done must not make a second next one).
struct SyncedKind: Sendable {
    struct Field: Sendable {
        let name: String
        let columns: [Column]
    }

    /// A column and the JSON type its values take on the wire.
    struct Column: Sendable {
        /// `list`: a timer's spans or laps, kept as canonical JSON text
        /// (`SyncedTimers`) so that values compare as columns do.
        enum ValueType: Sendable { case text, number, integer, boolean, list }
        let name: String
        let type: ValueType
        let isNullable: Bool
    }

    let kind: ChangeLog.Kind
    let table: String
    /// nil for a kind without tags (timers).
    let tagTable: String?
    let tagItemColumn: String?
    let fields: [Field]
    /// The field merged by lines when both sides changed it (a memo's text).
    let mergedText: String?

    /// The kinds every device keeps.
    static let all: [SyncedKind] = [todo, memo, SyncedTimers.kind, SyncedVoice.kind]

    static func named(_ name: String) -> SyncedKind? {
        all.first { $0.kind.rawValue == name }
    }

    static let todo = SyncedKind(
        kind: .todo, table: "todos", tagTable: "todo_tags", tagItemColumn: "todo_id",
        fields: [
            Field(name: "title", columns: [Column(name: "title", type: .text, isNullable: false)]),
            Field(name: "note", columns: [Column(name: "note", type: .text, isNullable: true)]),
            Field(name: "priority", columns: [Column(name: "priority", type: .integer, isNullable: true)]),
            Field(name: "due", columns: [Column(name: "due_at", type: .number, isNullable: true),
                                         Column(name: "due_has_time", type: .boolean, isNullable: false)]),
            Field(name: "done", columns: [Column(name: "done_at", type: .number, isNullable: true)]),
            Field(name: "remind", columns: [Column(name: "remind_at", type: .number, isNullable: true)]),
            Field(name: "repeat", columns: [Column(name: "repeat_every", type: .integer, isNullable: true),
                                            Column(name: "repeat_unit", type: .text, isNullable: true),
                                            Column(name: "repeat_from", type: .text, isNullable: true),
                                            Column(name: "repeat_day", type: .integer, isNullable: true)]),
            Field(name: "tags", columns: []),
            Field(name: "created", columns: [Column(name: "created_at", type: .number, isNullable: false)]),
        ],
        mergedText: nil)

    static let memo = SyncedKind(
        kind: .memo, table: "memos", tagTable: "memo_tags", tagItemColumn: "memo_id",
        fields: [
            Field(name: "title", columns: [Column(name: "title", type: .text, isNullable: true)]),
            Field(name: "text", columns: [Column(name: "text", type: .text, isNullable: false)]),
            Field(name: "pinned", columns: [Column(name: "is_pinned", type: .boolean, isNullable: false)]),
            Field(name: "tags", columns: []),
            Field(name: "created", columns: [Column(name: "created_at", type: .number, isNullable: false)]),
            Field(name: "conflict_of", columns: [Column(name: "conflict_of", type: .text, isNullable: true)]),
        ],
        mergedText: "text")

    var columns: [Column] { fields.flatMap(\.columns) }
    var fieldNames: [String] { fields.map(\.name) }

    /// The longest text a pushed column may hold: a push's limit. A memo
    /// written here may be longer (the command line sets no limit): its
    /// push is refused as too large, naming it, rather than cut.
    static let maximumTextBytes = 8 << 20

    // MARK: - Rows

    /// One item's synced values: its columns by name, and its tags.
    struct Values: Equatable, Sendable {
        var columns: [String: SQLiteValue]
        var tags: [String]

        /// The value of one field, comparable between homes.
        func field(_ field: Field) -> [SQLiteValue] {
            field.columns.map { columns[$0.name] ?? .null }
        }
    }

    /// The item with `uid` as stored here: its id and values; nil when absent.
    func read(uid: String, in connection: Connection) throws -> Stored? {
        try read(where: "uid = ?", .text(uid), in: connection)
    }

    /// The item with `id` as stored here; nil when absent.
    func read(id: Int64, in connection: Connection) throws -> Stored? {
        try read(where: "id = ?", .integer(id), in: connection)
    }

    /// An item as stored: what sync reads of it.
    struct Stored {
        let id: Int64
        let uid: String
        let rev: Int64
        let updatedAt: Timestamp
        let values: Values
    }

    private func read(where condition: String, _ key: SQLiteValue, in connection: Connection) throws -> Stored? {
        if kind == .timer { return try SyncedTimers.read(where: condition, key, in: connection) }
        if kind == .voice { return try SyncedVoice.read(where: condition, key, in: connection) }
        let names = columns.map(\.name)
        let sql = "SELECT id, uid, rev, updated_at, tags, \(names.joined(separator: ", ")) FROM \(table) WHERE \(condition)"
        return try connection.queryFirst(sql, arguments: [key]) { row in
            var values: [String: SQLiteValue] = [:]
            for (offset, name) in names.enumerated() { values[name] = row.value(5 + offset) }
            return Stored(id: row.int64(0), uid: row.optionalString(1) ?? "", rev: row.int64(2),
                          updatedAt: Timestamp(secondsSince1970: row.double(3)),
                          values: Values(columns: values, tags: TagColumn.split(row.string(4))))
        }
    }

    /// Writes `values` into the item with `uid`, making it when absent (a
    /// voice memo's audio from `home`'s blobs). Returns the item's rev
    /// afterwards (the change log's entry numbers it).
    @discardableResult
    func write(uid: String, _ values: Values, updatedAt: Timestamp, in connection: Connection, home: SyncPlace) throws -> Int64 {
        if kind == .timer { return try SyncedTimers.write(uid: uid, values, in: connection) }
        if kind == .voice {
            return try SyncedVoice.write(uid: uid, values, in: connection, library: home.voiceDirectory, clock: home.clock)
        }
        guard let tagTable, let tagItemColumn else { preconditionFailure("a kind with tags") }
        let names = columns.map(\.name)
        let tagText = TagColumn.joined(values.tags)
        let bound = names.map { values.columns[$0] ?? .null }
        let id: Int64
        if let existing = try connection.queryFirst("SELECT id FROM \(table) WHERE uid = ?", uid, map: { $0.int64(0) }) {
            let sets = names.map { "\($0) = ?" }.joined(separator: ", ")
            try connection.execute("UPDATE \(table) SET \(sets), tags = ?, updated_at = ? WHERE id = ?",
                                   arguments: bound + [.text(tagText), .real(updatedAt.secondsSince1970), .integer(existing)])
            try connection.execute("DELETE FROM \(tagTable) WHERE \(tagItemColumn) = ?", existing)
            id = existing
        } else {
            let placeholders = Array(repeating: "?", count: names.count + 3).joined(separator: ", ")
            try connection.execute(
                "INSERT INTO \(table) (\(names.joined(separator: ", ")), tags, updated_at, uid) VALUES (\(placeholders))",
                arguments: bound + [.text(tagText), .real(updatedAt.secondsSince1970), .text(uid)])
            id = connection.lastInsertRowID
        }
        for tag in values.tags {
            try connection.execute("INSERT OR IGNORE INTO \(tagTable) (\(tagItemColumn), tag) VALUES (?, ?)", id, tag)
        }
        return try connection.queryFirst("SELECT rev FROM \(table) WHERE id = ?", id) { $0.int64(0) } ?? 0
    }

    /// Removes the item with `uid`, if present (its tags go with it).
    func remove(uid: String, in connection: Connection) throws {
        try connection.execute("DELETE FROM \(table) WHERE uid = ?", uid)
    }

    // MARK: - Wire

    /// The values as the sync document states them: each column by name,
    /// and `tags` as an array.
    func json(_ values: Values) -> JSON {
        var members: [(String, JSON)] = columns.map { column in
            switch values.columns[column.name] ?? .null {
            case .null: (column.name, .null)
            case .integer(let number): (column.name, column.type == .boolean ? .bool(number != 0) : .int(number))
            case .real(let number): (column.name, .double(number))
            case .text(let text) where column.type == .list:
                (column.name, (try? JSON.parse(Array(text.utf8))) ?? .array([]))
            case .text(let text): (column.name, .string(text))
            case .blob: (column.name, .null)
            }
        }
        if tagTable != nil { members.append(("tags", .strings(values.tags))) }
        return .object(members)
    }

    /// Values read back from a sync document, every column checked for its
    /// type, presence and size, the tags by the one tag rule. A record this
    /// home wrote itself, or its hub sends (`isOwnRecord`), is read without
    /// the size bound.
    func values(from reader: JSONReader, isOwnRecord: Bool = false) throws -> Values {
        var columns: [String: SQLiteValue] = [:]
        let allowed = Set(self.columns.map(\.name) + (tagTable == nil ? [] : ["tags"]))
        for (key, _) in try reader.members() where !allowed.contains(key) {
            throw MemoError(.badInput, en: "a \(kind.rawValue)'s values have no member \(key)",
                            ko: "\(kind.rawValue) 값에 \(key) 항목은 없습니다")
        }
        for column in self.columns {
            guard let member = try reader.member(column.name), !member.isNull else {
                guard column.isNullable else {
                    throw MemoError(.badInput, en: "a \(kind.rawValue) needs \(column.name)",
                                    ko: "\(kind.rawValue)에는 \(column.name) 값이 있어야 합니다")
                }
                columns[column.name] = .null
                continue
            }
            switch column.type {
            case .text:
                let text = try member.string()
                guard isOwnRecord || text.utf8.count <= Self.maximumTextBytes else {
                    throw MemoError(.tooLarge, en: "\(column.name) is longer than 8 MiB", ko: "\(column.name) 값이 8 MiB보다 깁니다")
                }
                columns[column.name] = .text(text)
            case .number:
                let number = try member.double()
                guard number.isFinite, abs(number) < 1e11 else {
                    throw MemoError(.badInput, en: "\(column.name) is not a time memoapp can keep",
                                    ko: "\(column.name) 값은 memoapp이 보관할 수 있는 시각이 아닙니다")
                }
                columns[column.name] = .real(number)
            case .integer:
                columns[column.name] = .integer(try member.int())
            case .boolean:
                columns[column.name] = .integer(try member.bool() ? 1 : 0)
            case .list:
                columns[column.name] = .text(try SyncedTimers.canonicalList(column.name, member))
            }
        }
        let tags = try Tags.normalized(try reader.member("tags")?.elements().map { try $0.string() } ?? [])
        // The stores' own rules, so a device cannot store what no front end could.
        switch kind {
        case .todo:
            try TodoStore.validate(title: columns["title"]?.textValue ?? "")
        case .memo:
            try MemoStore.validate(text: columns["text"]?.textValue ?? "", isNew: true)
            try MemoStore.validate(title: columns["title"]?.textValue)
            if let original = columns["conflict_of"]?.textValue, !UUID4.isWellFormed(original) {
                throw MemoError(.badInput, en: "conflict_of is a memo's uid", ko: "conflict_of는 메모의 uid입니다")
            }
        case .timer:
            try SyncedTimers.validate(columns)
        case .voice:
            try SyncedVoice.validate(columns)
        }
        return Values(columns: columns, tags: tags)
    }
}

/// Where sync writes: the home's voice library (a voice memo's audio comes
/// from its blobs) and its clock.
struct SyncPlace {
    let voiceDirectory: String
    let clock: WallClock
}
