import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// An export (see `ExportDocument`) read and checked whole before anything
/// is written: the format and its version, the schema, every item's fields
/// (each module checks its own), and what no single item can check: ids and
/// uids used twice, counters below an id. Any problem is bad input (exit 65)
/// naming the JSON path, or the line and column when the JSON itself is
/// broken.
public struct ImportDocument {
    public var onboarding: OnboardingState
    public var lastIDs: [String: Int64]
    public var todos: [Todo]
    public var memos: [Memo]
    public var voiceMemos: [VoiceArchive.Item]
    public var timers: [TimerRecord]

    /// Reads the document in `bytes`; `source` (the file's name) starts every message.
    public init(bytes: [UInt8], source: String) throws {
        let root = try JSONReader(parsing: bytes, source: source)
        _ = try root.members()
        let format = try root.nonNull("format")
        guard try format.string() == ExportDocument.format else {
            throw format.failure(en: "not a memoapp export (the format must be \"\(ExportDocument.format)\")",
                                 ko: "memoapp 내보내기 파일이 아닙니다 (format은 \"\(ExportDocument.format)\"이어야 합니다)")
        }
        let version = try root.nonNull("format_version")
        let number = try version.int()
        guard number <= ExportDocument.formatVersion else {
            throw version.failure(
                en: "made by a newer memoapp (format version \(number)); this memoapp is older and reads version "
                    + "\(ExportDocument.formatVersion): upgrade memoapp to import it",
                ko: "더 새 memoapp이 만든 파일입니다 (형식 버전 \(number)). 이 memoapp은 더 오래되어 버전 "
                    + "\(ExportDocument.formatVersion)만 읽습니다. memoapp을 업그레이드하세요")
        }
        guard number == ExportDocument.formatVersion else {
            throw version.failure(en: "unknown format version \(number)", ko: "알 수 없는 형식 버전 \(number)")
        }
        try ImportDocument.checkSchema(try root.nonNull("schema"))
        onboarding = try OnboardingArchive.state(from: try root.nonNull("onboarding"))
        todos = try ImportDocument.items(root, "todos", NotesArchive.todo(from:), id: \.id, uid: \.uid)
        memos = try ImportDocument.items(root, "memos", NotesArchive.memo(from:), id: \.id, uid: \.uid)
        voiceMemos = try ImportDocument.items(root, "voice_memos", VoiceArchive.item(from:), id: \.id, uid: \.uid)
        timers = try ImportDocument.items(root, "timers", TimerArchive.timer(from:), id: \.id, uid: \.uid)
        let largest = ["todos": todos.map(\.id).max(), "memos": memos.map(\.id).max(),
                       "voice_memos": voiceMemos.map(\.id).max()]
        let counters = try root.nonNull("last_ids")
        lastIDs = [:]
        for table in ExportDocument.counterTables {
            // A counter bounds every id given after it, so it stays in the
            // range of ids themselves (`JSONReader.id`).
            let value = try counters.int(table, in: 0...JSONReader.largestExactInteger)
            if let id = largest[table] ?? nil, value < id {
                throw try counters.nonNull(table).failure(
                    en: "\(value) is below the largest id in \(table), \(id)",
                    ko: "\(value)이(가) \(table)의 가장 큰 id \(id)보다 작습니다")
            }
            lastIDs[table] = value
        }
    }

    /// Every item, by the order of the document.
    public var itemCount: Int { todos.count + memos.count + voiceMemos.count + timers.count }

    // MARK: - Private

    /// Migrations this memoapp does not know mean a newer memoapp wrote the
    /// document, whose items may hold what this one cannot store.
    private static func checkSchema(_ schema: JSONReader) throws {
        let list = try schema.nonNull("migrations")
        let names = try list.elements().map { try $0.string() }
        let known = Set(Schema.migrator.migrations.map(\.name))
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw list.failure(
                en: "made by a newer memoapp (unknown migrations: \(unknown.joined(separator: ", "))); "
                    + "this memoapp is older: upgrade memoapp to import it",
                ko: "더 새 memoapp이 만든 파일입니다 (알 수 없는 마이그레이션: \(unknown.joined(separator: ", "))). "
                    + "이 memoapp은 더 오래되었으니 업그레이드하세요")
        }
    }

    /// The array `key` read item by item, with no id or uid used twice.
    private static func items<Item>(_ root: JSONReader, _ key: String, _ read: (JSONReader) throws -> Item,
                                    id: KeyPath<Item, Int64>, uid: KeyPath<Item, String>) throws -> [Item] {
        var ids = DuplicateCheck<Int64>(name: "id")
        var uids = DuplicateCheck<String>(name: "uid")
        return try root.elements(key).map { reader in
            let item = try read(reader)
            try ids.note(item[keyPath: id], at: try reader.nonNull("id"))
            try uids.note(item[keyPath: uid], at: try reader.nonNull("uid"))
            return item
        }
    }
}
