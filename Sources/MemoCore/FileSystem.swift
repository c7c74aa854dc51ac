#if canImport(Glibc)
import Glibc
#endif

/// The POSIX file operations memoapp's modules share (the voice library,
/// backup and restore, exports), each failure turned into a `.storage`
/// error that names the path and the system's reason in both languages.
public enum FileSystem {
    /// What was being done when a call failed, as the error says it.
    public struct Action: Sendable {
        public let words: Localized

        public static let creating = Action(words: Localized(en: "create", ko: "만들"))
        public static let opening = Action(words: Localized(en: "open", ko: "열"))
        public static let reading = Action(words: Localized(en: "read", ko: "읽을"))
        public static let writing = Action(words: Localized(en: "write", ko: "쓸"))
        public static let flushing = Action(words: Localized(en: "flush", ko: "디스크에 기록할"))
        public static let renaming = Action(words: Localized(en: "rename", ko: "이름을 바꿀"))
        public static let removing = Action(words: Localized(en: "remove", ko: "지울"))
        public static let listing = Action(words: Localized(en: "list", ko: "목록을 읽을"))
        public static let locking = Action(words: Localized(en: "lock", ko: "잠글"))
    }

    /// `cannot write PATH: No space left on device`, from `errno` unless `code` is given.
    public static func storageError(_ action: Action, _ path: String, code: Int32 = errno) -> MemoError {
        let reason = String(cString: strerror(code))
        return MemoError(.storage, en: "cannot \(action.words.en) \(path): \(reason)",
                         ko: "\(path): \(action.words.ko) 수 없습니다: \(reason)")
    }

    /// Writes all `count` bytes, retrying short writes and interruptions.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, count: Int,
                                path: String = "the copy") throws {
        var done = 0
        while done < count {
            let result = write(descriptor, bytes + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                throw storageError(.writing, path)
            }
            done += result
        }
    }

    public static func fsyncFile(_ descriptor: Int32, path: String) throws {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw storageError(.flushing, path) }
        }
    }

    /// Makes a rename or unlink in `directory` durable.
    public static func fsyncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw storageError(.opening, directory) }
        defer { close(descriptor) }
        try fsyncFile(descriptor, path: directory)
    }

    public static func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw storageError(.renaming, from) }
    }

    /// Removes a file; one that is already gone is not an error.
    public static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw storageError(.removing, path) }
    }

    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` (mode 0700) when absent.
    public static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw storageError(.creating, path) }
        guard isDirectory(path) else { throw storageError(.creating, path, code: ENOTDIR) }
    }

    /// The names in `directory`, without `.` and `..`, sorted.
    public static func names(in directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw storageError(.listing, directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// 16 random hex digits for temporary names (the standard library's
    /// system generator, which reads getrandom).
    public static func randomToken() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var value = UInt64.random(in: .min ... .max)
        var text: [UInt8] = []
        for _ in 0..<16 {
            text.append(digits[Int(value & 0xF)])
            value >>= 4
        }
        return String(decoding: text, as: UTF8.self)
    }
}
