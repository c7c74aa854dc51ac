import MemoCore
import Notes
import SQLite

/// The one place memoapp's databases are opened, so that every front end and
/// use case opens them the same way: memoapp's application id claimed (an
/// empty file becomes memoapp's, another program's database is refused), WAL,
/// foreign keys on, a busy timeout of a few seconds.
public enum MemoDatabase {
    /// What every connection of this process needs before it opens a memoapp
    /// database: the search indexes' tokenizer (registered for all later
    /// connections at once; see `NotesSchema.registerSearchTokenizer`). Runs once.
    public static func prepareProcess() {
        _ = registered
    }

    private static let registered: Void = {
        // Registering the tokenizer initializes SQLite: its settings come first.
        SQLiteLibrary.configure()
        NotesSchema.registerSearchTokenizer()
    }()

    /// Opens the database at `path` for reading and writing, creating it when
    /// absent. Migrations are not applied here: `open(in:)` does that for a
    /// data home's database.
    public static func connect(_ path: String) throws -> Connection {
        prepareProcess()
        return try Connection(path: path, configuration: .memoapp)
    }

    /// Opens a database that must not be written (a backup's copy, a snapshot
    /// being checked).
    public static func connectReadingOnly(_ path: String) throws -> Connection {
        prepareProcess()
        return try Connection(readingOnly: path)
    }

    /// The data home's database, ready to use: the folder created (0700), the
    /// file created (0600) before SQLite opens it, every module's migrations
    /// applied.
    public static func open(in home: DataHome) throws -> Connection {
        try home.create()
        try home.createDatabaseFile()
        let connection = try connect(home.databasePath)
        try Schema.migrator.apply(to: connection)
        return connection
    }

    /// The data home's database for a program serving many threads at once
    /// (the HTTP server): one writer and up to `readers` WAL readers, every
    /// module's migrations applied on the writer before any reader opens.
    public static func openPool(in home: DataHome, readers: Int = 8) throws -> DatabasePool {
        try home.create()
        try home.createDatabaseFile()
        prepareProcess()
        let pool = try DatabasePool(path: home.databasePath, configuration: .memoapp, maximumReaderCount: readers)
        try pool.writeWithoutTransaction { try Schema.migrator.apply(to: $0) }
        return pool
    }
}
