import MemoCore
import Notes

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
    public static func importTodos(from paths: [String], format: TodoFormat, dryRun: Bool,
                                   into workspace: Workspace) throws -> Result {
        let inputs = try paths.map(InputFile.read)
        var todos: [ImportedTodo] = []
        var skipped = 0
        try nothingImported {
            for input in inputs {
                switch format {
                case .todotxt:
                    todos += try TodoTxtReader(calendar: workspace.calendar).todos(in: input.bytes, source: input.path)
                case .taskwarrior:
                    let result = try TaskwarriorReader(calendar: workspace.calendar).tasks(in: input.bytes,
                                                                                            source: input.path)
                    todos += result.todos
                    skipped += result.skipped
                }
            }
        }
        let outcome = try workspace.todoStore().importTodos(todos, dryRun: dryRun)
        return Result(outcome: outcome, skipped: format == .taskwarrior ? skipped : nil, isDryRun: dryRun)
    }

    /// Reads each of `paths` as one memo and adds those not there yet.
    public static func importMemos(from paths: [String], dryRun: Bool, into workspace: Workspace) throws -> Result {
        let inputs = try paths.map(InputFile.read)
        let memos = try nothingImported {
            try inputs.map { try MemoFileReader.memo(in: $0.bytes, source: $0.path, modifiedAt: $0.modifiedAt) }
        }
        let outcome = try workspace.memoStore().importMemos(memos, dryRun: dryRun)
        return Result(outcome: outcome, skipped: nil, isDryRun: dryRun)
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
