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

    /// The data home for this invocation. An empty choice is an error, not
    /// the default: `MEMOAPP_HOME="$UNSET_VARIABLE"` would otherwise point a
    /// `restore --force` at ~/.local/share/memoapp. `XDG_DATA_HOME` that is
    /// empty or relative is ignored, as the XDG base directory specification
    /// says. Without `HOME`, the account's home folder comes from the
    /// password database.
    /// - Parameter accountHome: the home folder of the user running memoapp
    ///   (by default from `getpwuid_r`), asked only when `HOME` is unset or empty.
    /// - Throws: `.usage` for an empty choice, or no home folder at all.
    public static func resolve(explicit: String?, environment: [String: String],
                               accountHome: () -> String? = DataHome.accountHome) throws -> DataHome {
        if let explicit {
            guard !explicit.isEmpty else {
                throw MemoError(.usage, en: "the data home named is empty", ko: "지정한 데이터 폴더가 비어 있습니다")
            }
            return DataHome(path: explicit)
        }
        if let home = environment["MEMOAPP_HOME"] {
            guard !home.isEmpty else {
                throw MemoError(.usage, en: "MEMOAPP_HOME is set but empty: set it to a folder, or unset it for the default",
                                ko: "MEMOAPP_HOME이 비어 있습니다: 폴더로 지정하거나, 기본값을 쓰려면 지우세요")
            }
            return DataHome(path: home)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return DataHome(path: xdg + "/memoapp") }
        if let home = environment["HOME"], home.hasPrefix("/") { return DataHome(path: home + "/.local/share/memoapp") }
        guard let home = accountHome(), home.hasPrefix("/") else {
            throw MemoError(.usage, en: "there is no home folder to keep the data in: HOME is not set and user id \(geteuid()) has none in the password database",
                            ko: "데이터를 둘 홈 폴더가 없습니다: HOME이 없고 사용자 id \(geteuid())의 홈 폴더가 암호 데이터베이스에 없습니다")
        }
        return DataHome(path: home + "/.local/share/memoapp")
    }

    /// The home folder of the user memoapp runs as, from the password
    /// database (getpwuid_r(3)), or nil when it has none.
    public static func accountHome() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil,
              let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }

    /// Refuses a data home memoapp must not use: something that is not a
    /// folder, or a folder that belongs to another user (whose files memoapp
    /// would make unreadable to them, or could not read). One that does not
    /// exist yet is fine: it is made on first use.
    /// - Throws: `.storage`, saying which.
    public func checkUsable() throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw DataHome.storageError(errno, action: "open", path: path) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw MemoError(.storage, hint: .examineDataHome, en: "the data home \(path) exists and is not a folder",
                            ko: "데이터 폴더 \(path)이 이미 있고 폴더가 아닙니다")
        }
        let user = geteuid()
        guard info.st_uid == user else {
            throw MemoError(.storage, hint: .examineDataHome,
                            en: "the data home \(path) belongs to user id \(info.st_uid), not to you (\(user))",
                            ko: "데이터 폴더 \(path)의 소유자가 본인(\(user))이 아니라 사용자 id \(info.st_uid)입니다")
        }
    }

    public var databasePath: String { path + "/memoapp.db" }
    public var voiceDirectory: String { path + "/voice" }

    /// Whether the database exists yet (checked without creating anything).
    public var hasDatabase: Bool { access(databasePath, F_OK) == 0 }

    /// Creates the folder (0700) and its parents if needed, after
    /// `checkUsable`.
    public func create() throws {
        try checkUsable()
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
