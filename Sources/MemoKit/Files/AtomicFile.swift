import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file the user named so that it appears whole or not at all:
/// a temporary file in the same folder (so the rename cannot cross disks),
/// fsync, rename over the name, fsync of the folder. A failure removes the
/// temporary and leaves whatever was at the name before.
public enum AtomicFile {
    /// Writes `text` to `path` (mode 0600: exports hold private notes),
    /// replacing a file that is there.
    /// - Throws: `.invalidState` when `path` is a folder; `.storage` when the
    ///   folder is missing or cannot be written, or the disk is full.
    public static func write(_ text: String, to path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw MemoError(.invalidState, en: "\(path) is a folder; name a file", ko: "\(path)은(는) 폴더입니다. 파일 이름을 쓰세요")
        }
        let folder = folder(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folder + "/." + name + "." + FileSystem.randomToken() + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.storageError(.creating, path) }
        var isOpen = true
        do {
            var bytes = text
            try bytes.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return }
                try FileSystem.writeAll(descriptor, start, count: buffer.count, path: path)
            }
            try FileSystem.fsyncFile(descriptor, path: path)
            close(descriptor)
            isOpen = false
            guard rename(temporary, path) == 0 else { throw FileSystem.storageError(.writing, path) }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
        // A folder that cannot be opened for reading (mode -wx) still took the
        // rename; only its flush is skipped then.
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            defer { close(directory) }
            try FileSystem.fsyncFile(directory, path: path)
        }
        removeAbandonedTemporaries(of: name, in: folder)
    }

    /// A write killed before its rename leaves `.NAME.<hex>.tmp` beside NAME,
    /// outside any data home, so nothing else would ever remove it. The next
    /// successful write to the same name removes those older than a minute
    /// (a write still running is younger: an export takes well under that).
    public static func removeAbandonedTemporaries(of name: String, in folder: String, olderThan seconds: Int = 60) {
        guard let names = try? FileSystem.names(in: folder) else { return }
        let prefix = "." + name + "."
        let now = time(nil)
        for candidate in names where candidate.hasPrefix(prefix) && candidate.hasSuffix(".tmp") {
            let middle = candidate.dropFirst(prefix.count).dropLast(4)
            guard !middle.isEmpty, middle.allSatisfy(\.isHexDigit) else { continue }
            let path = folder + "/" + candidate
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  info.st_uid == getuid(), now - info.st_mtim.tv_sec > seconds else { continue }
            unlink(path)
        }
    }

    // MARK: - Private

    /// The folder part of a path ("." for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
