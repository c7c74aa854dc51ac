import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// An export (see `ExportDocument`) checked as it is read: the format and
/// its version, the schema, every item's fields (each module checks its
/// own), and what no single item can check: ids and uids used twice,
/// counters below an id. Any problem is bad input (exit 65) naming the JSON
/// path, or the line and column when the JSON itself is broken.
///
/// The document is read as a stream (`JSONObjectStream`), never held. A
/// first pass reads everything but the to-dos, memos and timers (skipped
/// unparsed: it finds where they are and that the JSON around them is
/// whole) and checks it, voice memos included, whose audio must be found
/// before the write. `forEachItem` then reads and checks the other items one
/// at a time, handing each to the writer as it goes (reading on a thread of
/// its own, so that reading and writing overlap): the writer's
/// transaction is what keeps the import all or nothing, since an item found
/// bad halfway throws and rolls back what came before it. Parsing each item
/// once, not in a check pass and again in a write pass, is a third of an
/// import's time. An import of millions of items takes memory for their ids,
/// not for the items.
public struct ImportDocument {
    public var onboarding: OnboardingState
    public var voiceMemos: [VoiceArchive.Item]
    /// To-dos, memos, voice memos and timers, counted by the first pass
    /// (what an import's progress is measured against).
    public private(set) var itemCount = 0
    private let stream: JSONObjectStream
    /// `last_ids`, checked against the largest ids once every item is read.
    private let counters: JSONReader
    private let voiceMemoIdentities: ItemIdentities

    /// The arrays of items, streamed element by element.
    private static let itemKeys: Set<String> = ["todos", "memos", "voice_memos", "timers"]
    /// The arrays too large to read in the first pass.
    private static let largeItemKeys: Set<String> = ["todos", "memos", "timers"]

    /// Reads and checks the document `stream` holds, but for its to-dos,
    /// memos and timers, which `forEachItem` checks.
    public init(_ stream: JSONObjectStream) throws {
        self.stream = stream
        var members: [(String, JSON)] = []
        // Voice memos are checked after the format below, as they come after it.
        var voiceMemoReaders: [JSONReader] = []
        let counts = try stream.scan(streamedArrays: ImportDocument.itemKeys,
                                     skippingElementsOf: ImportDocument.largeItemKeys) { event in
            switch event {
            case let .member(key, value): members.append((key, value.value))
            // Its elements are checked later; here it is an array.
            case let .arrayStarted(key): members.append((key, .array([])))
            case let .element(_, reader): voiceMemoReaders.append(reader)
            }
        }
        let root = JSONReader(.object(members), source: stream.name)
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
        try ImportDocument.checkSchema(try root.nonNull("schema", expecting: Localized(en: "an object naming the migrations, as 'memoapp export' writes it",
                                                                       ko: "'memoapp export'가 쓰는 것처럼 마이그레이션을 적은 객체")))
        onboarding = try OnboardingArchive.state(from: try root.nonNull("onboarding"))
        // Present, and arrays (a value of another kind is not streamed).
        for key in ["todos", "memos", "voice_memos", "timers"] { _ = try root.elements(key) }

        var identities = ItemIdentities(key: "voice_memos")
        voiceMemos = try voiceMemoReaders.map { reader in
            let item = try VoiceArchive.item(from: reader)
            try identities.note(id: item.id, uid: item.uid, at: reader)
            return item
        }
        voiceMemoIdentities = identities
        counters = try root.nonNull("last_ids")
        itemCount = counts.values.reduce(0, +)
    }

    /// One item of the document.
    public enum Item {
        case todo(Todo)
        case memo(Memo)
        case voiceMemo(VoiceArchive.Item)
        /// A timer, and the uid of the to-do its time was spent on.
        case timer(TimerRecord, todoUID: String?)
    }

    /// Reads the to-dos, memos and timers, checking each, and hands `body`
    /// each in the document's order (voice memos are in `voiceMemos`); then
    /// checks the counters against the ids read, and returns them per table.
    /// Call inside the transaction that writes them: an error partway
    /// leaves the items before it handed on. The reading runs on a thread
    /// of its own while `body` runs on the caller's (`HandOff`).
    /// - Parameter batchesAhead: how far the reading may get ahead of `body`
    ///   (`HandOff.batchesAhead(indexing:)`).
    public func forEachItem(batchesAhead: Int, _ body: (Item) throws -> Void) throws -> [String: Int64] {
        let stream = stream
        let counters = counters
        let voiceMemoIdentities = voiceMemoIdentities
        return try HandOff.run(batchesAhead: batchesAhead, size: \.bytesHeld, produce: { send in
            var identities = ["todos": ItemIdentities(key: "todos"), "memos": ItemIdentities(key: "memos"),
                              "voice_memos": voiceMemoIdentities, "timers": ItemIdentities(key: "timers")]
            try stream.scan(streamedArrays: ImportDocument.largeItemKeys) { event in
                guard case let .element(key, reader) = event else { return }
                let item = try ImportDocument.item(key, reader)
                let (id, uid): (Int64, String)
                switch item {
                case let .todo(todo): (id, uid) = (todo.id, todo.uid)
                case let .memo(memo): (id, uid) = (memo.id, memo.uid)
                case let .timer(timer, _): (id, uid) = (timer.id, timer.uid)
                case let .voiceMemo(item): (id, uid) = (item.id, item.uid)
                }
                try identities[key]?.note(id: id, uid: uid, at: reader)
                try send(item)
            }
            return try ImportDocument.checked(counters, against: identities)
        }, consume: body)
    }

    // MARK: - Private

    /// The counters of `last_ids` per table, each at least the largest id
    /// of its table's items.
    private static func checked(_ counters: JSONReader, against identities: [String: ItemIdentities]) throws
        -> [String: Int64] {
        var lastIDs: [String: Int64] = [:]
        for table in ExportDocument.counterTables {
            // A counter bounds every id given after it, so it stays in the
            // range of ids themselves (`JSONReader.id`).
            let value = try counters.int(table, in: 0...JSONReader.largestExactInteger)
            if let id = identities[table]?.largestID, value < id {
                throw try counters.nonNull(table).failure(
                    en: "\(value) is below the largest id in \(table), \(id)",
                    ko: "\(value)이(가) \(table)의 가장 큰 id \(id)보다 작습니다")
            }
            lastIDs[table] = value
        }
        return lastIDs
    }

    /// Migrations this memoapp does not know mean a newer memoapp wrote the
    /// document, whose items may hold what this one cannot store.
    private static func checkSchema(_ schema: JSONReader) throws {
        let list = try schema.nonNull("migrations", expecting: Localized(en: "a list of migration names", ko: "마이그레이션 이름 목록"))
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

    private static func item(_ key: String, _ reader: JSONReader) throws -> Item {
        switch key {
        case "todos": return .todo(try NotesArchive.todo(from: reader))
        case "memos": return .memo(try NotesArchive.memo(from: reader))
        case "voice_memos": return .voiceMemo(try VoiceArchive.item(from: reader))
        default:
            let todoUID = reader.hasKey("todo_uid") ? try reader.nullable("todo_uid")?.string() : nil
            return .timer(try TimerArchive.timer(from: reader), todoUID: todoUID)
        }
    }
}

/// The ids and uids of one kind of item seen so far, kept small (a uid as
/// its 128 bits, the first place as an index), for documents of millions.
private struct ItemIdentities {
    let key: String
    private var ids: [Int64: Int32] = [:]
    private var uids: [UIDKey: Int32] = [:]
    private var count: Int32 = 0
    private(set) var largestID: Int64?

    init(key: String) {
        self.key = key
    }

    /// Notes the item at `reader`; an error naming both places when its id
    /// or uid was seen before.
    mutating func note(id: Int64, uid: String, at reader: JSONReader) throws {
        if let first = ids.updateValue(count, forKey: id) {
            throw try reader.nonNull("id").failure(en: "the id \(id) is used twice (first at \(path(first, "id")))",
                                                   ko: "id \(id)이(가) 두 번 쓰였습니다 (처음: \(path(first, "id")))")
        }
        if let first = uids.updateValue(count, forKey: UIDKey(uid)) {
            throw try reader.nonNull("uid").failure(en: "the uid \(uid) is used twice (first at \(path(first, "uid")))",
                                                    ko: "uid \(uid)이(가) 두 번 쓰였습니다 (처음: \(path(first, "uid")))")
        }
        largestID = max(largestID ?? id, id)
        count += 1
    }

    private func path(_ index: Int32, _ field: String) -> JSONPath {
        JSONPath.root.appending(key: key).appending(index: Int(index)).appending(key: field)
    }
}
