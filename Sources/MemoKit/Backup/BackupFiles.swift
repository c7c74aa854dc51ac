import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// The file operations only backup and restore need, beside the shared ones
/// in `FileSystem`; each failure is a `MemoError` naming the path and the
/// system's reason.
public enum BackupFiles {
    /// What is at a path, without following a symbolic link.
    public enum Kind {
        case absent, directory, regularFile, other
    }

    public static func kind(of path: String) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .absent }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// Removes a folder this process made and everything in it, best effort,
    /// never following a symbolic link out of it.
    public static func removeTree(_ path: String) {
        if kind(of: path) == .directory, let names = try? FileSystem.names(in: path) {
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Creates `path` (mode 0700); it must not exist.
    public static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw FileSystem.storageError(.creating, path) }
    }

    /// Writes `text` into a new file (mode 0600) and flushes it to the disk.
    public static func writeNewFile(_ path: String, text: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.storageError(.creating, path) }
        defer { close(descriptor) }
        var text = text
        try text.withUTF8 { buffer in
            guard let start = buffer.baseAddress else { return }
            try FileSystem.writeAll(descriptor, start, count: buffer.count, path: path)
        }
        try FileSystem.fsyncFile(descriptor, path: path)
    }

    /// The whole content of a regular file (not through a symbolic link), or
    /// nil when it is larger than `limit`.
    public static func contents(of path: String, limit: Int) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw FileSystem.storageError(.reading, path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystem.storageError(.reading, path)
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// The absolute path with every link resolved, or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Takes an exclusive lock on an open file or folder without waiting;
    /// false when another process holds it.
    public static func tryLock(_ descriptor: Int32) -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Raises the soft limit on open files to the hard one and returns how
    /// many files this process may still open, keeping `reserve` for SQLite,
    /// the standard streams and libraries.
    public static func availableDescriptors(reserve: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let openNow = (try? FileSystem.names(in: "/proc/self/fd").count) ?? 0
        return max(0, Int(clamping: limit.rlim_cur) - openNow - reserve)
    }
}
