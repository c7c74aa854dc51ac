import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// What an import did, per kind of item.
public struct DocumentImportReport: Sendable {
    /// Added and skipped items of one kind.
    public struct Counts: Sendable {
        public var added = 0
        public var alreadyPresent = 0
    }

    /// True when the data home was empty: ids, counters and onboarding kept.
    public var isRestore = false
    public var todos = Counts()
    public var memos = Counts()
    public var voiceMemos = Counts()
    public var timers = Counts()
    /// Titles of voice memos left out because their audio was not found.
    public var voiceMemosWithoutAudio: [String] = []
}

/// Writes a checked `ImportDocument` into a data home, inside one write
/// transaction the caller holds. An empty home (no item of any kind; a fresh,
/// onboarded home is empty) gets the document as it is: ids, uids, counters
/// and the onboarding state. Otherwise each item whose uid is not stored yet
/// is added under a new id, and the rest are counted as already present, so
/// importing a file twice adds nothing the second time.
public enum ImportWriter {
    public static func write(_ document: ImportDocument, audio: VoiceAudioImport,
                      into connection: Connection) throws -> DocumentImportReport {
        var report = DocumentImportReport()
        report.isRestore = try NotesArchive.isEmpty(connection) && TimerArchive.isEmpty(connection)
            && VoiceArchive.isEmpty(connection)
        let keepingIDs = report.isRestore
        report.todos = try add(document.todos, isPresent: { try NotesArchive.containsTodo(uid: $0.uid, in: connection) },
                               insert: { try NotesArchive.insert($0, keepingID: keepingIDs, into: connection); return true })
        report.memos = try add(document.memos, isPresent: { try NotesArchive.containsMemo(uid: $0.uid, in: connection) },
                               insert: { try NotesArchive.insert($0, keepingID: keepingIDs, into: connection); return true })
        // A voice memo whose audio did not arrive is left out and named, never stored without its file.
        var withoutAudio: [String] = []
        report.voiceMemos = try add(document.voiceMemos, isPresent: { try VoiceArchive.contains(uid: $0.uid, in: connection) },
                                    insert: { item in
            guard audio.hasAudio(forUID: item.uid) else {
                withoutAudio.append(item.title)
                return false
            }
            try audio.insert(item, keepingID: keepingIDs, into: connection)
            return true
        })
        report.voiceMemosWithoutAudio = withoutAudio
        report.timers = try add(document.timers, isPresent: { try TimerArchive.contains(uid: $0.uid, in: connection) },
                                insert: { try TimerArchive.insert($0, keepingID: keepingIDs, into: connection); return true })
        if report.isRestore {
            for (table, id) in document.lastIDs { try connection.raiseAutoincrementID(of: table, to: id) }
            try OnboardingArchive.restore(document.onboarding, into: connection)
        }
        return report
    }

    /// Inserts each item that `isPresent` does not find, counting both;
    /// `insert` answers false for an item it leaves out.
    private static func add<Item>(_ items: [Item], isPresent: (Item) throws -> Bool,
                                  insert: (Item) throws -> Bool) throws -> DocumentImportReport.Counts {
        var counts = DocumentImportReport.Counts()
        for item in items {
            if try isPresent(item) {
                counts.alreadyPresent += 1
            } else if try insert(item) {
                counts.added += 1
            }
        }
        return counts
    }
}
