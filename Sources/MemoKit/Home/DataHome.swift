import MemoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// The folder that holds everything memoapp keeps: `memoapp.db` and `voice/`.
/// Chosen in this order: --home, $MEMOAPP_HOME, $XDG_DATA_HOME/memoapp,
/// ~/.local/share/memoapp. Created on first use with mode 0700.
public struct DataHome: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The data home for this invocation.
    public static func resolve(explicit: String?, environment: [String: String]) -> DataHome {
        if let explicit, !explicit.isEmpty { return DataHome(path: explicit) }
        if let home = environment["MEMOAPP_HOME"], !home.isEmpty { return DataHome(path: home) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return DataHome(path: xdg + "/memoapp") }
        let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return DataHome(path: userHome + "/.local/share/memoapp")
    }

    public var databasePath: String { path + "/memoapp.db" }
    public var voiceDirectory: String { path + "/voice" }

    /// Whether the database exists yet (checked without creating anything).
    public var hasDatabase: Bool { access(databasePath, F_OK) == 0 }

    /// Creates the folder (0700) and its parents if needed.
    public func create() throws {
        try DataHome.makeDirectory(path, mode: 0o700)
    }

    /// Creates the database file with mode 0600 before SQLite opens it, so that
    /// the umask cannot make it readable by others (SQLite gives its -wal and
    /// -shm files the same mode as the database).
    public func createDatabaseFile() throws {
        let descriptor = open(databasePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            // An existing database on a read-only disk cannot be opened for
            // writing either: say "open", not "create", for a file that is there.
            throw DataHome.storageError(code, action: hasDatabase ? "open" : "create", path: databasePath)
        }
        close(descriptor)
    }

    static func makeDirectory(_ path: String, mode: mode_t) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw MemoError(.storage, en: "\(path) exists and is not a folder",
                                ko: "\(path)이 이미 있고 폴더가 아닙니다")
            }
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty, parent != path { try makeDirectory(parent, mode: mode) }
        if mkdir(path, mode) != 0, errno != EEXIST {
            throw storageError(errno, action: "create", path: path)
        }
    }

    static func storageError(_ code: Int32, action: String, path: String) -> MemoError {
        let reason = String(cString: strerror(code))
        let ko = action == "create" ? "만들 수 없습니다" : "열 수 없습니다"
        return MemoError(.storage, en: "cannot \(action) \(path): \(reason)", ko: "\(path)을 \(ko): \(reason)")
    }
}
