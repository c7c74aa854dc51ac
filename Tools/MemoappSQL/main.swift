// memoapp-sql DATABASE [SQL]: runs SQL statements (the argument, else all of
// standard input) on a memoapp database with the search tokenizer registered,
// so that rows written here are indexed exactly as memoapp's own writes are,
// and prints the rows they return as the sqlite3 shell does (values joined
// by `|`, NULL as nothing). The sqlite3 shell lacks the tokenizer and cannot
// write to-dos or memos (see NotesSchema); scripts/bench fills its data homes
// with this, and tests write "by hand" with it.
//
// The database is first opened as memoapp opens it (another program's
// database is refused, a new one becomes memoapp's, in WAL mode), then the
// statements run on a plain connection with foreign keys on and memoapp's busy
// timeout. Exits 1 with SQLite's message when a statement fails (those before
// it stay done unless the script wraps them in a transaction), 64 on a usage
// error.
import CSQLite
import MemoKit
import SQLite
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 || arguments.count == 2, !arguments[0].hasPrefix("-") else {
    fputs("usage: memoapp-sql DATABASE [SQL]   (SQL from standard input when not given)\n", stderr)
    exit(64)
}
let path = arguments[0]
var sql = arguments.count == 2 ? arguments[1] : ""
if arguments.count == 1 {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 { bytes += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
    }
    sql = String(decoding: bytes, as: UTF8.self)
}

func fail(_ message: String) -> Never {
    fputs("memoapp-sql: \(message)\n", stderr)
    exit(1)
}

MemoDatabase.prepareProcess()
do {
    _ = try MemoDatabase.connect(path)
} catch {
    fail("\(error)")
}
var database: OpaquePointer?
guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let database else {
    fail(database.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
}
sqlite3_busy_timeout(database, Configuration.defaultBusyTimeoutMilliseconds)
let printRow: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                              UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 = { _, count, values, _ in
    let line = (0..<Int(count)).map { values?[$0].map { String(cString: $0) } ?? "" }.joined(separator: "|")
    fputs(line + "\n", stdout)
    return 0
}
var message: UnsafeMutablePointer<CChar>?
if sqlite3_exec(database, "PRAGMA foreign_keys = ON; " + sql, printRow, nil, &message) != SQLITE_OK {
    let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(database))
    sqlite3_close(database)
    fail(text)
}
sqlite3_close(database)
