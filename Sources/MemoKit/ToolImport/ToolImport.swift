import MemoCore
import Notes
import SQLite
import Timers
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// Imports from other tools: to-dos from todo.txt or Taskwarrior's export,
/// memos from Markdown or text files. Every file is opened first (a missing
/// one imports nothing); then one transaction reads them a piece at a time
/// (a memo file whole), checks each item and adds it unless it is there
/// already, and rolls back at the first bad one: all or nothing, in the
/// memory of one item rather than of every file.
public enum ToolImport {
    /// The formats to-dos can come in.
    public enum TodoFormat: String, CaseIterable, Sendable {
        case todotxt
        case taskwarrior
    }

    /// What an import did (or, on a dry run, would do).
    public struct Result: Sendable {
        public let outcome: ImportOutcome
        /// Taskwarrior tasks left out (deleted ones, recurring templates); nil
        /// for formats that skip nothing.
        public let skipped: Int?
        public let isDryRun: Bool
    }

    /// Reads `paths` as `format` and adds their to-dos to the workspace's
    /// store; with `undoDescription`, as one step of the undo history.
    /// - Parameter progress: called now and then, on the calling thread, with
    ///   the bytes of the files read so far and their total.
    public static func importTodos(from paths: [String], format: TodoFormat, dryRun: Bool,
                                   undoDescription: String? = nil, into workspace: Workspace,
                                   progress: ((Int, Int) -> Void)? = nil) throws -> Result {
        let files = try OpenFiles(paths)
        let store = try workspace.todoStore()
        let calendar = workspace.calendar
        var skipped = 0
        let outcome = try storing(undoDescription: undoDescription, dryRun: dryRun, in: workspace) { bulk in
            try store.importTodos(dryRun: dryRun) { add in
                // The files are read and checked on a thread of their own.
                skipped = try HandOff.run(batchesAhead: HandOff.batchesAhead(indexing: bulk), size: \.bytesHeld,
                                          produce: { send in
                    var skipped = 0
                    for (path, descriptor) in files.opened {
                        try forEachTodo(in: descriptor, path: path, format: format, calendar: calendar) { todo in
                            guard let todo else {
                                skipped += 1
                                return
                            }
                            try TodoStore.check(todo)
                            try send(todo)
                        }
                    }
                    return skipped
                }, consume: { item in
                    try add(item)
                    try bulk?.itemStored()
                    files.itemStored(progress)
                })
            }
        }
        return Result(outcome: outcome, skipped: format == .taskwarrior ? skipped : nil, isDryRun: dryRun)
    }

    /// Reads each of `paths` as one memo and adds those not there yet; a
    /// folder stands for its memo files (`memoFiles(in:)`). With
    /// `undoDescription`, as one step of the undo history.
    /// - Parameter progress: as `importTodos`'.
    public static func importMemos(from paths: [String], dryRun: Bool, undoDescription: String? = nil,
                                   into workspace: Workspace, progress: ((Int, Int) -> Void)? = nil) throws -> Result {
        let names = try paths.flatMap { path in FileSystem.isDirectory(path) ? try memoFiles(in: path) : [path] }
        // Each file is opened (and checked readable) before any is read, so a
        // missing one is found first, then read one at a time while storing.
        let files = try OpenFiles(names)
        let store = try workspace.memoStore()
        let outcome = try storing(undoDescription: undoDescription, dryRun: dryRun, in: workspace) { bulk in
            try store.importMemos(dryRun: dryRun) { add in
                try HandOff.run(batchesAhead: HandOff.batchesAhead(indexing: bulk), size: \.bytesHeld, produce: { send in
                    for (path, descriptor) in files.opened {
                        let input = try InputFile.read(descriptor, path: path)
                        let memo = try MemoFileReader.memo(in: input.bytes, source: path, modifiedAt: input.modifiedAt)
                        try MemoStore.check(memo)
                        try send(memo)
                    }
                }, consume: { item in
                    try add(item)
                    try bulk?.itemStored()
                    files.itemStored(progress)
                })
            }
        }
        return Result(outcome: outcome, skipped: nil, isDryRun: dryRun)
    }

    // MARK: - Private

    /// Files opened for reading, closed when this goes away.
    private final class OpenFiles {
        private(set) var opened: [(path: String, descriptor: Int32)] = []
        private var totalBytes = 0
        private var storedCount = 0

        init(_ paths: [String]) throws {
            for path in paths {
                let file = try InputFile.open(path)
                opened.append((path, file.descriptor))
                var status = stat()
                if fstat(file.descriptor, &status) == 0 { totalBytes += Int(status.st_size) }
            }
        }

        /// Counts an item stored and, every 1,024, reports how far the
        /// reading thread has read: each file's offset, which the system
        /// keeps per descriptor, so it is asked here without sharing state
        /// with that thread.
        func itemStored(_ progress: ((Int, Int) -> Void)?) {
            guard let progress else { return }
            storedCount += 1
            guard storedCount % 1024 == 0 else { return }
            let read = opened.reduce(0) { $0 + max(0, Int(lseek($1.descriptor, 0, SEEK_CUR))) }
            progress(min(read, totalBytes), totalBytes)
        }

        deinit {
            for file in opened { close(file.descriptor) }
        }
    }

    /// Hands `body` each to-do of the file open at `descriptor`, read a piece
    /// at a time; nil for a Taskwarrior task left out.
    private static func forEachTodo(in descriptor: Int32, path: String, format: TodoFormat,
                                    calendar: some LocalCalendar, _ body: (ImportedTodo?) throws -> Void) throws {
        switch format {
        case .todotxt:
            try TodoTxtReader(calendar: calendar).forEachTodo(from: InputFile.pieces(of: descriptor, path: path),
                                                             source: path) { try body($0) }
        case .taskwarrior:
            let stream = JSONObjectStream(.file(descriptor: descriptor, path: path), name: path)
            try TaskwarriorReader(calendar: calendar).forEachTask(in: stream, body)
        }
    }

    /// Runs `write`, which reads the files and stores what they hold, in one
    /// transaction, so that the first bad item found imports nothing; its
    /// statement journals in memory (`withTemporaryFilesInMemory`). With
    /// `undoDescription`, the transaction is a step of the undo history. Into
    /// a home with no to-dos or memos (moving over from another tool), the
    /// indexes are built in bulk (`NotesArchive.bulkWrite`, whose handle
    /// `write` is given, else nil), and when it holds no item at all
    /// the step is logged as the emptying of its tables rather than row by row.
    private static func storing<T>(undoDescription: String?, dryRun: Bool, in workspace: Workspace,
                                   _ write: (NotesArchive.BulkWrite?) throws -> T) throws -> T {
        let connection = try workspace.database()
        return try nothingImported {
            try connection.withTemporaryFilesInMemory {
                // The store reads in a transaction of its own.
                guard !dryRun else { return try write(nil) }
                guard let undoDescription else { return try inTransaction(connection, history: nil, write) }
                let history = try workspace.undoHistory()
                return try history.record(undoDescription) { try inTransaction(connection, history: history, write) }
            }
        }
    }

    /// `write` in a write transaction, the bulk way into a home without
    /// items. A transaction of a million rows gets the page cache an export's
    /// import has, for the same reason (`DocumentImport.cacheKibibytes`).
    private static func inTransaction<T>(_ connection: Connection, history: UndoHistory?,
                                         _ write: (NotesArchive.BulkWrite?) throws -> T) throws -> T {
        try connection.withCacheSize(kibibytes: DocumentImport.cacheKibibytes) {
            try connection.writeTransaction {
                guard try NotesArchive.isEmpty(connection) else { return try write(nil) }
                // One change-log entry for the whole import, not one per item.
                return try ChangeLog.recordingEverything(in: connection) {
                    guard let history, try TimerArchive.isEmpty(connection), try VoiceArchive.isEmpty(connection) else {
                        return try NotesArchive.bulkWrite(in: connection, write)
                    }
                    return try history.recordAsEmptying { try NotesArchive.bulkWrite(in: connection, write) }
                }
            }
        }
    }

    /// The names a folder's memo files end in (any case).
    static let memoFileEndings = [".md", ".markdown", ".txt"]

    /// The memo files of `folder`, not its subfolders or hidden files, in the
    /// order of the number they start with, then by name: `2-…` before
    /// `10-…`, so the files `memo export` wrote come in in the memos' id
    /// order, and into a new data home get the ids they had.
    static func memoFiles(in folder: String) throws -> [String] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let names = try FileSystem.names(in: folder).filter { name in
            !name.hasPrefix(".") && memoFileEndings.contains { name.lowercased().hasSuffix($0) }
                && !FileSystem.isDirectory(prefix + name)
        }
        func number(_ name: String) -> UInt64 { UInt64(name.prefix { $0.isASCII && $0.isNumber }.prefix(19)) ?? UInt64.max }
        return names.sorted { (number($0), $0) < (number($1), $1) }.map { prefix + $0 }
    }

    /// A file that cannot be read as its format imports nothing: its message says so.
    static func nothingImported<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MemoError where error.kind == .badInput {
            throw MemoError(.badInput, en: error.message.en + "; nothing was imported",
                            ko: error.message.ko + ". 아무것도 가져오지 않았습니다")
        }
    }
}
