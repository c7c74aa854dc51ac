/// How a `Connection` (or every connection of a `DatabasePool`) opens its
/// database: the caller's choices, handed in as one value, so that nothing
/// about any one application lives in this module.
///
/// The default opens any SQLite database, creating it when missing, in WAL
/// mode with foreign keys enforced, full fsyncs and a busy timeout of five
/// seconds. An application that marks its files sets `applicationID` (and
/// `productName` for the messages that refuse other files).
public struct Configuration: Sendable {
    /// How long a statement waits for another connection's lock before it
    /// fails with SQLITE_BUSY (https://www.sqlite.org/c3ref/busy_timeout.html).
    public var busyTimeoutMilliseconds: Int32

    /// `PRAGMA foreign_keys` for the connection; SQLite leaves them off unless
    /// asked (https://www.sqlite.org/foreignkeys.html#fk_enable).
    public var foreignKeysEnabled: Bool

    /// `PRAGMA synchronous`, or nil to keep SQLite's default.
    public var synchronous: Synchronous?

    /// The journal mode to switch the database to at open, or nil to keep
    /// the file's own. Ignored for read-only connections. An in-memory
    /// database (":memory:") cannot be in WAL mode: give it nil.
    public var journalMode: JournalMode?

    /// The number that must be in the header's application_id
    /// (https://www.sqlite.org/pragma.html#pragma_application_id), or nil to
    /// accept any database. A file with another number is refused unchanged.
    public var applicationID: Int32?

    /// With `applicationID` set: whether a missing or empty database (no
    /// tables, application_id 0) may be created and given that number. When
    /// false, such a database is refused like another program's.
    public var claimsEmptyDatabase: Bool

    /// Opens for reading only: nothing is created or written, not even the
    /// journal mode; a file on a read-only disk opens too. A WAL database
    /// needs its -shm file to be present or writable.
    public var isReadOnly: Bool

    /// The name of the program whose databases these are, as messages say it
    /// ("not a Notebook database", "made by a newer Notebook"); nil for wording
    /// that names no program.
    public var productName: String?

    /// Five seconds: long enough for another process's write transaction to
    /// finish, short enough that a stuck one is reported.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 5000

    public init(busyTimeoutMilliseconds: Int32 = Configuration.defaultBusyTimeoutMilliseconds,
                foreignKeysEnabled: Bool = true,
                synchronous: Synchronous? = .full,
                journalMode: JournalMode? = .wal,
                applicationID: Int32? = nil,
                claimsEmptyDatabase: Bool = true,
                isReadOnly: Bool = false,
                productName: String? = nil) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.foreignKeysEnabled = foreignKeysEnabled
        self.synchronous = synchronous
        self.journalMode = journalMode
        self.applicationID = applicationID
        self.claimsEmptyDatabase = claimsEmptyDatabase
        self.isReadOnly = isReadOnly
        self.productName = productName
    }

    /// `PRAGMA synchronous` levels (https://www.sqlite.org/pragma.html#pragma_synchronous).
    public enum Synchronous: String, Sendable {
        case off = "OFF"
        case normal = "NORMAL"
        /// Every commit is on the disk when it returns, in WAL mode too.
        case full = "FULL"
        case extra = "EXTRA"
    }

    /// `PRAGMA journal_mode` values (https://www.sqlite.org/pragma.html#pragma_journal_mode).
    public enum JournalMode: String, Sendable {
        case delete, truncate, persist, memory, off
        /// Readers go on while one connection writes (https://www.sqlite.org/wal.html).
        case wal
    }

    /// The same configuration, for reading only.
    public var readingOnly: Configuration {
        var copy = self
        copy.isReadOnly = true
        return copy
    }

    // MARK: - Private

    /// A missing file may be created: there is no mark to check, or an empty
    /// database may be given it.
    var mayCreate: Bool { applicationID == nil || claimsEmptyDatabase }

    // MARK: Wording

    /// The statements that set the modes, written out whole: a literal costs
    /// nothing to build, and every open runs them.
    var synchronousPragma: String? {
        switch synchronous {
        case .off: return "PRAGMA synchronous = OFF"
        case .normal: return "PRAGMA synchronous = NORMAL"
        case .full: return "PRAGMA synchronous = FULL"
        case .extra: return "PRAGMA synchronous = EXTRA"
        case nil: return nil
        }
    }

    var journalModePragma: String? {
        switch journalMode {
        case .delete: return "PRAGMA journal_mode = DELETE"
        case .truncate: return "PRAGMA journal_mode = TRUNCATE"
        case .persist: return "PRAGMA journal_mode = PERSIST"
        case .memory: return "PRAGMA journal_mode = MEMORY"
        case .off: return "PRAGMA journal_mode = OFF"
        case .wal: return "PRAGMA journal_mode = WAL"
        case nil: return nil
        }
    }

    /// "a Notebook database", or "this application's database" without a product name.
    var databaseNoun: String {
        productName.map { "a \($0) database" } ?? "this application's database"
    }

    /// "a newer Notebook", or "a newer version of the application".
    var newerProductNoun: String {
        productName.map { "a newer \($0)" } ?? "a newer version of the application"
    }

    /// "Notebook", or "the application".
    var productNoun: String { productName ?? "the application" }
}
