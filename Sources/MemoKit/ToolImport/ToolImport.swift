import MemoCore
import Notes
#if canImport(Glibc)
import Glibc
#endif

/// Imports from other tools: to-dos from todo.txt or Taskwarrior's export,
/// memos from Markdown or text files. Every file is read and parsed before
/// anything is stored; then one transaction adds what is not there yet.
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

    /// Reads `paths` as `format` and adds their to-dos to the workspace's store.
    /// - Parameter progress: called now and then with work done and its total
    ///   (todo.txt: files read; Taskwarrior: tasks stored, once all are checked).
    public static func importTodos(from paths: [String], format: TodoFormat, dryRun: Bool,
                                   into workspace: Workspace, progress: ((Int, Int) -> Void)? = nil) throws -> Result {
        switch format {
        case .todotxt:
            let inputs = try readAll(paths, progress: progress)
            let todos = try nothingImported {
                try inputs.flatMap { try TodoTxtReader(calendar: workspace.calendar).todos(in: $0.bytes, source: $0.path) }
            }
            let outcome = try workspace.todoStore().importTodos(todos, dryRun: dryRun)
            return Result(outcome: outcome, skipped: nil, isDryRun: dryRun)
        case .taskwarrior:
            return try importTaskwarrior(from: paths, dryRun: dryRun, into: workspace, progress: progress)
        }
    }

    /// Reads every file whole, reporting each one read.
    private static func readAll(_ paths: [String], progress: ((Int, Int) -> Void)?) throws -> [InputFile] {
        try paths.enumerated().map { index, path in
            defer { progress?(index + 1, paths.count) }
            return try InputFile.read(path)
        }
    }

    /// Taskwarrior's exports, streamed: every task is read and checked in a
    /// first pass, then read again and stored in one transaction, so a
    /// million tasks are never held at once.
    private static func importTaskwarrior(from paths: [String], dryRun: Bool, into workspace: Workspace,
                                          progress: ((Int, Int) -> Void)?) throws -> Result {
        var files: [JSONObjectStream] = []
        defer { for case let .file(descriptor, _) in files.map(\.source) { close(descriptor) } }
        for path in paths {
            let opened = try InputFile.open(path)
            files.append(JSONObjectStream(.file(descriptor: opened.descriptor, path: path), name: path))
        }
        let reader = TaskwarriorReader(calendar: workspace.calendar)
        var skipped = 0
        var checked = 0
        try nothingImported {
            for file in files {
                try reader.forEachTask(in: file) { todo in
                    if let todo { try TodoStore.check(todo); checked += 1 } else { skipped += 1 }
                }
            }
        }
        let store = try workspace.todoStore()
        let importAll = {
            try store.importTodos(dryRun: dryRun) { add in
                var stored = 0
                for file in files {
                    try reader.forEachTask(in: file) { todo in
                        guard let todo else { return }
                        try add(todo)
                        stored += 1
                        progress?(stored, checked)
                    }
                }
            }
        }
        let connection = try workspace.database()
        // Into a home with no to-dos or memos yet (moving over from
        // Taskwarrior), the search indexes are built once, at the end.
        let outcome = try dryRun ? importAll() : connection.writeTransaction {
            try NotesArchive.isEmpty(connection) ? NotesArchive.withSearchIndexedAtTheEnd(in: connection, importAll) : importAll()
        }
        return Result(outcome: outcome, skipped: skipped, isDryRun: dryRun)
    }

    /// Reads each of `paths` as one memo and adds those not there yet; a
    /// folder stands for its memo files (`memoFiles(in:)`).
    /// - Parameter progress: called with each file read and their number.
    public static func importMemos(from paths: [String], dryRun: Bool, into workspace: Workspace,
                                   progress: ((Int, Int) -> Void)? = nil) throws -> Result {
        let files = try paths.flatMap { path in FileSystem.isDirectory(path) ? try memoFiles(in: path) : [path] }
        let inputs = try readAll(files, progress: progress)
        let memos = try nothingImported {
            try inputs.map { try MemoFileReader.memo(in: $0.bytes, source: $0.path, modifiedAt: $0.modifiedAt) }
        }
        let outcome = try workspace.memoStore().importMemos(memos, dryRun: dryRun)
        return Result(outcome: outcome, skipped: nil, isDryRun: dryRun)
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
