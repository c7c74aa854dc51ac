import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A file being written under a hidden name beside where it will go, held
/// under an exclusive `flock` for as long as its writer has it open. The
/// kernel drops the lock when the writer dies, however it dies, so a file of
/// this kind whose lock can be taken is provably abandoned: `removeAbandoned`
/// takes the lock before it removes anything, and never looks at the age.
///
/// The name is `<prefix><16 hex digits><suffix>`. Between `open(O_EXCL)`
/// making the file and `flock` locking it there is an instant in which a
/// sweep may find it unlocked and remove it; the writer therefore checks,
/// once it holds the lock, that the name still leads to its own file, and
/// starts again under a new name when it does not.
///
/// Nothing here is specific to memoapp's application layer: the voice
/// library's temporaries follow the same rule and can share this type once
/// it moves down to MemoCore.
public final class LockedTemporaryFile {
    /// Where the temporary is, for renaming it; messages name `shownPath`.
    public let path: String
    /// The path the user knows this write by (the destination), for messages.
    public let shownPath: String
    public private(set) var descriptor: Int32

    /// Creates and locks a new temporary in `folder`.
    /// - Throws: `.storage` naming `shownPath` when the folder cannot take it.
    public init(in folder: String, prefix: String, suffix: String, shownPath: String) throws {
        self.shownPath = shownPath
        for _ in 0..<LockedTemporaryFile.attempts {
            let candidate = folder + "/" + prefix + FileSystem.randomToken() + suffix
            let opened = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if opened < 0 {
                if errno == EEXIST { continue }
                throw FileSystem.storageError(.creating, shownPath)
            }
            // Blocking: a sweep holds the lock only while it looks.
            while flock(opened, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let failure = FileSystem.storageError(.locking, shownPath)
                    Glibc.close(opened)
                    unlink(candidate)
                    throw failure
                }
            }
            if LockedTemporaryFile.isSameFile(opened, candidate) {
                path = candidate
                descriptor = opened
                return
            }
            Glibc.close(opened)  // a sweep removed it before the lock was taken
        }
        throw FileSystem.storageError(.creating, shownPath, code: EAGAIN)
    }

    deinit { close() }

    /// Flushes the bytes to the disk.
    public func sync() throws {
        try FileSystem.fsyncFile(descriptor, path: shownPath)
    }

    /// Removes the temporary after a failure, then releases it.
    public func discard() {
        unlink(path)
        close()
    }

    /// Releases the lock (after the temporary was renamed into place).
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Removes every file in `folder` whose name `isCandidate` accepts and
    /// whose writer is gone: a regular file of this user that no process
    /// holds locked. The lock is taken before removing, and the name must
    /// still lead to the file that was locked, so a live writer's file is
    /// never removed. Returns the names removed.
    @discardableResult
    public static func removeAbandoned(in folder: String, where isCandidate: (String) -> Bool) -> [String] {
        guard let names = try? FileSystem.names(in: folder) else { return [] }
        var removed: [String] = []
        for name in names where isCandidate(name) {
            let candidate = folder + "/" + name
            let opened = open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard opened >= 0 else { continue }
            defer { Glibc.close(opened) }
            var status = stat()
            guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
                  flock(opened, LOCK_EX | LOCK_NB) == 0, isSameFile(opened, candidate) else { continue }
            if unlink(candidate) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether `name` is `<prefix><16 hex digits><suffix>`, a name `init` makes.
    public static func isName(_ name: String, prefix: String, suffix: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.utf8.count == prefix.utf8.count + 16 + suffix.utf8.count
        else { return false }
        return name.utf8.dropFirst(prefix.utf8.count).prefix(16).allSatisfy {
            (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
        }
    }

    // MARK: - Private

    private static let attempts = 8

    /// Whether `path` names the file open as `descriptor` (not a link).
    private static func isSameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0
            && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}
