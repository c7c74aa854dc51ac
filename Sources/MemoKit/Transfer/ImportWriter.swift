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
        for todo in document.todos {
            if try NotesArchive.containsTodo(uid: todo.uid, in: connection) {
                report.todos.alreadyPresent += 1
            } else {
                try NotesArchive.insert(todo, keepingID: keepingIDs, into: connection)
                report.todos.added += 1
            }
        }
        for memo in document.memos {
            if try NotesArchive.containsMemo(uid: memo.uid, in: connection) {
                report.memos.alreadyPresent += 1
            } else {
                try NotesArchive.insert(memo, keepingID: keepingIDs, into: connection)
                report.memos.added += 1
            }
        }
        for item in document.voiceMemos {
            if try VoiceArchive.contains(uid: item.uid, in: connection) {
                report.voiceMemos.alreadyPresent += 1
            } else if audio.hasAudio(forUID: item.uid) {
                try audio.insert(item, keepingID: keepingIDs, into: connection)
                report.voiceMemos.added += 1
            } else {
                report.voiceMemosWithoutAudio.append(item.title)
            }
        }
        for timer in document.timers {
            if try TimerArchive.contains(uid: timer.uid, in: connection) {
                report.timers.alreadyPresent += 1
            } else {
                try TimerArchive.insert(timer, keepingID: keepingIDs, into: connection)
                report.timers.added += 1
            }
        }
        if report.isRestore {
            for (table, id) in document.lastIDs { try connection.raiseAutoincrementID(of: table, to: id) }
            try OnboardingArchive.restore(document.onboarding, into: connection)
        }
        return report
    }
}
