#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A file being written in the library folder, named
/// `.<purpose>-<random>.part` and held under an exclusive `flock` for as long
/// as this process has it open: the lock tells a cleaner that it is in use
/// (the kernel releases it when the process dies).
final class TemporaryFile {
    /// Temporaries younger than this are never taken for leftovers: covers the
    /// instant between creating one and locking it.
    static let minimumLeftoverAge: Int = 10

    let path: String
    let name: String
    private(set) var descriptor: Int32

    init(in directory: String, purpose: String, fileExtension: String = "part") throws {
        name = ".\(purpose)-\(FileSystem.randomToken()).\(fileExtension == "part" ? "part" : fileExtension + ".part")"
        path = directory + "/" + name
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.storageError(.creating, path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = FileSystem.storageError(.locking, path)
            close(descriptor)
            unlink(path)
            throw failure
        }
    }

    deinit { closeDescriptor() }

    /// Flushes the file's bytes to the disk.
    func sync() throws {
        try FileSystem.fsyncFile(descriptor, path: path)
    }

    /// Removes the file (after a failure).
    func discard() {
        closeDescriptor()
        unlink(path)
    }

    func closeDescriptor() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    /// True for names this type makes.
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".part")
    }

    /// True when no process holds the file's lock and it is old enough that
    /// its creator cannot be about to take it.
    static func isAbandoned(_ path: String, now: Int = Int(time(nil))) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              now - Int(status.st_mtim.tv_sec) >= minimumLeftoverAge else { return false }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
