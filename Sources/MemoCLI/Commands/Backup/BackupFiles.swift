import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// The POSIX file operations backup and restore need, each failure turned
/// into a `MemoError` that names the path and the system's reason.
enum BackupFiles {
    /// What is at a path, without following a symbolic link.
    enum Kind {
        case absent, directory, regularFile, other
    }

    static func kind(of path: String) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .absent }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    static func storageError(_ action: Localized, _ path: String, code: Int32 = errno) -> MemoError {
        let reason = String(cString: strerror(code))
        return MemoError(.storage, en: "cannot \(action.en) \(path): \(reason)", ko: "\(path): \(action.ko) 수 없습니다: \(reason)")
    }

    static let creating = Localized(en: "create", ko: "만들")
    static let writing = Localized(en: "write", ko: "쓸")
    static let reading = Localized(en: "read", ko: "읽을")
    static let renaming = Localized(en: "rename", ko: "이름을 바꿀")
    static let flushing = Localized(en: "flush", ko: "디스크에 기록할")
    static let removing = Localized(en: "remove", ko: "지울")

    /// The names in `directory`, without `.` and `..`, sorted.
    static func names(in directory: String) throws -> [String] {
        guard let stream = opendir(directory) else { throw storageError(reading, directory) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Makes a rename or an unlink in `directory` durable.
    static func fsyncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw storageError(flushing, directory) }
        defer { close(descriptor) }
        try fsyncFile(descriptor, path: directory)
    }

    static func fsyncFile(_ descriptor: Int32, path: String) throws {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw storageError(flushing, path) }
        }
    }

    static func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw storageError(renaming, from) }
    }

    /// Removes a file; one already gone is not an error.
    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw storageError(removing, path) }
    }

    /// Removes a folder this process made and everything in it, best effort,
    /// never following a symbolic link out of it.
    static func removeTree(_ path: String) {
        if kind(of: path) == .directory, let names = try? names(in: path) {
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Creates `path` (mode 0700); it must not exist.
    static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw storageError(creating, path) }
    }

    /// Writes `text` into a new file (mode 0600) and flushes it to the disk.
    static func writeNewFile(_ path: String, text: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw storageError(creating, path) }
        defer { close(descriptor) }
        var text = text
        try text.withUTF8 { buffer in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw storageError(writing, path)
                }
                done += count
            }
        }
        try fsyncFile(descriptor, path: path)
    }

    /// The whole content of a regular file (not through a symbolic link), or
    /// nil when it is larger than `limit`.
    static func contents(of path: String, limit: Int) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw storageError(reading, path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw storageError(reading, path)
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// The absolute path with every link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// 16 random hex digits for temporary names.
    static func randomToken() -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<16).map { _ in digits[Int.random(in: 0..<16)] })
    }

    /// Takes an exclusive lock on an open file or folder without waiting;
    /// false when another process holds it.
    static func tryLock(_ descriptor: Int32) -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Raises the soft limit on open files to the hard one and returns how
    /// many files this process may still open, keeping `reserve` for SQLite,
    /// the standard streams and libraries.
    static func availableDescriptors(reserve: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let openNow = (try? names(in: "/proc/self/fd").count) ?? 0
        return max(0, Int(clamping: limit.rlim_cur) - openNow - reserve)
    }
}
