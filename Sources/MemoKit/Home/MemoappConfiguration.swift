import MemoCore
import SQLite

extension Configuration {
    /// How memoapp opens its memoapp.db: "MEMO" in ASCII as the header's
    /// application_id, so that another program's database is refused
    /// unchanged; the SQLite module's defaults otherwise (WAL, foreign keys,
    /// full fsyncs, a busy timeout of seconds).
    public static let memoapp = Configuration(applicationID: 0x4D45_4D4F, productName: "memoapp")
}

extension SQLiteError {
    /// How memoapp reports this failure: trouble with the file, the disk or
    /// the lock is a storage failure (exit 74); a misuse of SQL is its own bug.
    public var kind: ErrorKind { isStorageFailure ? .storage : .internalFailure }
}
