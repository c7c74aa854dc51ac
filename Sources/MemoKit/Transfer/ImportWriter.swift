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

/// Writes an `ImportDocument` into a data home, inside one write transaction
/// the caller holds, which rolls back when an item read on the way is bad.
/// An empty home (no item of any kind; a fresh, onboarded home is empty)
/// gets the document as it is: ids, uids, counters
/// and the onboarding state. Otherwise each item whose uid is not stored yet
/// is added under a new id, and the rest are counted as already present, so
/// importing a file twice adds nothing the second time.
public enum ImportWriter {
    /// `undo`, when the write is a step of the undo history being recorded,
    /// logs a restore as the emptying of the tables it fills rather than row
    /// by row (`UndoHistory.recordAsEmptying`). `progress` gets each item
    /// written or found present and `document.itemCount`.
    public static func write(_ document: ImportDocument, audio: VoiceAudioImport, into connection: Connection,
                             undo: UndoHistory? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> DocumentImportReport {
        let isRestore = try NotesArchive.isEmpty(connection) && TimerArchive.isEmpty(connection)
            && VoiceArchive.isEmpty(connection)
        guard isRestore else {
            return try write(document, audio: audio, into: connection, isRestore: false, progress: progress)
        }
        let restore = { try write(document, audio: audio, into: connection, isRestore: true, progress: progress) }
        // One change-log entry for the whole restore, not one per item.
        return try ChangeLog.recordingEverything(in: connection) { try undo?.recordAsEmptying(restore) ?? restore() }
    }

    // MARK: - Private

    private static func write(_ document: ImportDocument, audio: VoiceAudioImport, into connection: Connection,
                              isRestore: Bool, progress: ((Int, Int) -> Void)?) throws -> DocumentImportReport {
        var report = DocumentImportReport()
        var itemsDone = 0
        func itemDone() {
            itemsDone += 1
            progress?(itemsDone, document.itemCount)
        }
        report.isRestore = isRestore
        let keepingIDs = isRestore
        // Into an empty home, nothing is present (the document's uids are
        // checked unique as they are read), and the indexes are built in
        // bulk (`NotesArchive.bulkWrite`).
        let isPresent = { (check: () throws -> Bool) throws -> Bool in isRestore ? false : try check() }
        let writeItems = { (body: (NotesArchive.BulkWrite?) throws -> [String: Int64]) throws in
            keepingIDs ? try NotesArchive.bulkWrite(in: connection, body) : try body(nil)
        }
        // The bulk write leaves SQLite's CHECKs to the to-dos' and memos' own
        // checks; timers, which come after them, are checked by SQLite too.
        var isCheckingTimers = !keepingIDs
        let lastIDs = try writeItems { bulk in try document.forEachItem(batchesAhead: HandOff.batchesAhead(indexing: bulk)) { item in
            defer { itemDone() }
            if case .timer = item, !isCheckingTimers {
                try NotesArchive.checkConstraintsAgain(in: connection)
                isCheckingTimers = true
            }
            switch item {
            case let .todo(todo):
                try add(to: &report.todos, isPresent: isPresent { try NotesArchive.containsTodo(uid: todo.uid, in: connection) }) {
                    try NotesArchive.insert(todo, keepingID: keepingIDs, into: connection)
                    try bulk?.itemStored()
                    return true
                }
            case let .memo(memo):
                try add(to: &report.memos, isPresent: isPresent { try NotesArchive.containsMemo(uid: memo.uid, in: connection) }) {
                    try NotesArchive.insert(memo, keepingID: keepingIDs, into: connection)
                    try bulk?.itemStored()
                    return true
                }
            case let .timer(timer, todoUID):
                try add(to: &report.timers, isPresent: isPresent { try TimerArchive.contains(uid: timer.uid, in: connection) }) {
                    let id = try TimerArchive.insert(timer, keepingID: keepingIDs, into: connection)
                    // To-dos come before timers in the document: the to-do is here when it was exported.
                    if let todoUID { try FeatureLinks.tieTimer(id, toTodoWithUID: todoUID, in: connection) }
                    return true
                }
            case .voiceMemo:
                break
            }
        } }
        // A voice memo whose audio did not arrive is left out and named, never stored without its file.
        var withoutAudio: [String] = []
        for item in document.voiceMemos {
            defer { itemDone() }
            try add(to: &report.voiceMemos, isPresent: isPresent { try VoiceArchive.contains(uid: item.uid, in: connection) }) {
                guard audio.hasAudio(forUID: item.uid) else {
                    withoutAudio.append(item.title)
                    return false
                }
                try audio.insert(item, keepingID: keepingIDs, into: connection)
                return true
            }
        }
        report.voiceMemosWithoutAudio = withoutAudio
        if report.isRestore {
            for (table, id) in lastIDs { try connection.raiseAutoincrementID(of: table, to: id) }
            try OnboardingArchive.restore(document.onboarding, into: connection)
        }
        return report
    }

    /// Counts an item already present, or inserts it; `insert` answers
    /// false for an item it leaves out.
    private static func add(to counts: inout DocumentImportReport.Counts, isPresent: Bool,
                            insert: () throws -> Bool) throws {
        if isPresent {
            counts.alreadyPresent += 1
        } else if try insert() {
            counts.added += 1
        }
    }
}
