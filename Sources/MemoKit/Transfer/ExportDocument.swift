import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// memoapp's export: one JSON document holding everything in a data home but
/// the audio, which it names with checksums. Each module writes its own
/// items (`NotesArchive`, `TimerArchive`, `VoiceArchive`,
/// `OnboardingArchive`); this type composes them:
///
///     {"format": "memoapp-export", "format_version": 1, "exported_at": "…",
///      "schema": {"migrations": ["onboarding.1-create-state", …]},
///      "last_ids": {"todos": 12, "memos": 3, "voice_memos": 2},
///      "onboarding": {…}, "todos": […], "memos": […], "voice_memos": […], "timers": […]}
///
/// Times are RFC 3339 in UTC with as many fractional digits as the stored
/// number needs to come back bit for bit (`Timestamp.exactRFC3339`).
/// `last_ids` are the AUTOINCREMENT counters, so that a restore never gives
/// again an id the exported home had given to an item since removed.
public enum ExportDocument {
    /// The value of `format`.
    public static let format = "memoapp-export"
    /// The version of the document's layout this memoapp writes and reads.
    public static let formatVersion: Int64 = 1
    /// The tables whose counters `last_ids` carries, by their document key.
    public static let counterTables = ["todos", "memos", "voice_memos"]

    /// The whole document as a value, for small homes and tests: `write`
    /// gives the same document as text without holding it.
    public static func make(connection: Connection, exportedAt: Timestamp) throws -> JSON {
        var text: [UInt8] = []
        try write(connection: connection, exportedAt: exportedAt) { text += $0.utf8 }
        return try JSON.parse(text)
    }

    /// Gives rows inserted by hand without a uid their uid, in one write
    /// transaction, when there are any; `write` does it first. A caller that
    /// streams the document does it before the first byte goes out, since for
    /// a million such rows it takes a minute of silence.
    public static func giveMissingUIDs(connection: Connection) throws {
        let tables = NotesArchive.tablesWithUIDs + VoiceArchive.tablesWithUIDs + TimerArchive.tablesWithUIDs
        if try tables.contains(where: { try connection.countRowsWithoutUID(in: $0) > 0 }) {
            try connection.writeTransaction {
                for table in tables { try connection.fillMissingUIDs(in: table) }
            }
        }
    }

    /// Writes the document as `JSON.prettySerialized` lays it out, handing
    /// `sink` pieces of up to about 64 KiB as the rows are read, so that an
    /// export of any size holds one to-do or memo at a time. Everything is
    /// read in one read transaction: one consistent snapshot while other
    /// processes write. Rows inserted by hand without a uid get one first (a
    /// write only when there are such rows, so a read-only home exports too).
    /// - Returns: how many items of each kind were written.
    @discardableResult
    public static func write(connection: Connection, exportedAt: Timestamp,
                             to sink: (String) throws -> Void) throws -> ExportCounts {
        try giveMissingUIDs(connection: connection)
        return try withoutActuallyEscaping(sink) { sink in try connection.readTransaction {
            var writer = PrettyObjectWriter(sink: sink)
            let lastIDs = try counterTables.map { ($0, JSON.int(try connection.lastAutoincrementID(of: $0))) }
            try writer.member("format", .string(format))
            try writer.member("format_version", .int(formatVersion))
            try writer.member("exported_at", .exactTime(exportedAt))
            try writer.member("schema", .object([("migrations", .strings(try Schema.migrator.appliedNames(in: connection)))]))
            try writer.member("last_ids", .object(lastIDs))
            try writer.member("onboarding", try OnboardingArchive.export(from: connection))
            let todos = try writer.array("todos") { try NotesArchive.exportTodos(from: connection, $0) }
            let memos = try writer.array("memos") { try NotesArchive.exportMemos(from: connection, $0) }
            let voice = try writer.array("voice_memos") { add in try VoiceArchive.exportMemos(from: connection).forEach(add) }
            let timers = try writer.array("timers") { add in
                try TimerArchive.exportTimers(from: connection).forEach { try add(try FeatureLinks.withTodoUID($0, in: connection)) }
            }
            try writer.finish()
            return ExportCounts(todos: todos, memos: memos, voiceMemos: voice, timers: timers)
        } }
    }
}

/// How many items of each kind an export holds.
public struct ExportCounts: Sendable, Equatable {
    public var todos: Int
    public var memos: Int
    public var voiceMemos: Int
    public var timers: Int
}

/// A top-level JSON object written member by member in the layout of
/// `JSON.prettySerialized`, its text handed on in pieces.
private struct PrettyObjectWriter {
    let sink: (String) throws -> Void
    private var pending = "{\n"
    private var hasMembers = false

    init(sink: @escaping (String) throws -> Void) {
        self.sink = sink
    }

    mutating func member(_ key: String, _ value: JSON) throws {
        try startMember(key)
        value.writePretty(to: &pending, indent: 2)
    }

    /// An array member whose elements `produce` hands over one at a time.
    /// - Returns: how many there were.
    mutating func array(_ key: String, _ produce: ((JSON) throws -> Void) throws -> Void) throws -> Int {
        try startMember(key)
        var count = 0
        try produce { element in
            pending += count == 0 ? "[\n    " : ",\n    "
            element.writePretty(to: &pending, indent: 4)
            count += 1
            if pending.utf8.count >= 1 << 16 { try flush() }
        }
        pending += count == 0 ? "[]" : "\n  ]"
        return count
    }

    mutating func finish() throws {
        pending += hasMembers ? "\n}\n" : "}\n"
        try flush()
    }

    private mutating func startMember(_ key: String) throws {
        pending += hasMembers ? ",\n  " : "  "
        hasMembers = true
        JSON.writeEscaped(key, to: &pending)
        pending += ": "
    }

    private mutating func flush() throws {
        try sink(pending)
        pending = ""
    }
}
