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

    /// The whole document, read in one read transaction, so that it is one
    /// consistent snapshot while other processes write. Rows inserted by hand
    /// without a uid get one first (a write only when there are such rows, so
    /// a read-only home exports too).
    /// The export document of the workspace's data home, as it is now.
    public static func make(from workspace: Workspace) throws -> JSON {
        try make(connection: workspace.database(), exportedAt: workspace.clock.now())
    }

    public static func make(connection: Connection, exportedAt: Timestamp) throws -> JSON {
        let tables = NotesArchive.tablesWithUIDs + VoiceArchive.tablesWithUIDs + TimerArchive.tablesWithUIDs
        if try tables.contains(where: { try connection.countRowsWithoutUID(in: $0) > 0 }) {
            try connection.writeTransaction {
                for table in tables { try connection.fillMissingUIDs(in: table) }
            }
        }
        return try connection.readTransaction {
            let lastIDs = try counterTables.map { ($0, JSON.int(try connection.lastAutoincrementID(of: $0))) }
            return .object([
                ("format", .string(format)),
                ("format_version", .int(formatVersion)),
                ("exported_at", .exactTime(exportedAt)),
                ("schema", .object([("migrations", .strings(try Schema.migrator.appliedNames(in: connection)))])),
                ("last_ids", .object(lastIDs)),
                ("onboarding", try OnboardingArchive.export(from: connection)),
                ("todos", .array(try NotesArchive.exportTodos(from: connection))),
                ("memos", .array(try NotesArchive.exportMemos(from: connection))),
                ("voice_memos", .array(try VoiceArchive.exportMemos(from: connection))),
                ("timers", .array(try TimerArchive.exportTimers(from: connection))),
            ])
        }
    }

    /// How many items of each kind `document` holds, for summaries.
    public static func counts(of document: JSON) -> [(String, JSON)] {
        guard case let .object(members) = document else { return [] }
        return ["todos", "memos", "voice_memos", "timers"].map { key in
            let items = members.first { $0.0 == key }?.1
            if case let .array(list)? = items { return (key, .int(list.count)) }
            return (key, .int(0))
        }
    }
}
