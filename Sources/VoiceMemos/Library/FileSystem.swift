#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// The few POSIX file operations the library folder needs, each turning a
/// failure into a `.storage` error that names the path and the reason.
enum FileSystem {
    static func storageError(_ action: String, _ path: String, code: Int32 = errno) -> MemoError {
        let reason = String(cString: strerror(code))
        return MemoError(.storage, en: "cannot \(action) \(path): \(reason)",
                         ko: "\(path)에 대해 \(action) 작업을 할 수 없습니다: \(reason)")
    }

    /// Writes all `count` bytes, retrying short writes and interruptions.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, count: Int, path: String = "the copy") throws {
        var done = 0
        while done < count {
            let result = write(descriptor, bytes + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                throw storageError("write", path)
            }
            done += result
        }
    }

    static func fsyncFile(_ descriptor: Int32, path: String) throws {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw storageError("flush", path) }
        }
    }

    /// Makes a rename or unlink in `directory` durable.
    static func fsyncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw storageError("open", directory) }
        defer { close(descriptor) }
        try fsyncFile(descriptor, path: directory)
    }

    static func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw storageError("rename", from) }
    }

    /// Removes a file; one that is already gone is not an error.
    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw storageError("remove", path) }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` (mode 0700) when absent.
    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw storageError("create", path) }
        guard isDirectory(path) else { throw storageError("create", path, code: ENOTDIR) }
    }

    /// The names in `directory`, without `.` and `..`.
    static func names(in directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw storageError("list", directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// 16 random hex digits for temporary names (the standard library's
    /// system generator, which reads getrandom).
    static func randomToken() -> String {
        var value = UInt64.random(in: .min ... .max)
        return withUnsafeBytes(of: &value) { StreamingChecksum.hex($0) }
    }
}
