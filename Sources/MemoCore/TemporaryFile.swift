#if canImport(Glibc)
import Glibc
#endif

/// A file being written in the folder it will be renamed in, named
/// `<prefix><16 hex digits><suffix>` — `.<purpose>-<16 hex>.part` (or
/// `….<extension>.part`) for memoapp's own folders, `.<name>.<16 hex>.part`
/// beside a file the user named — and the one rule, for every writer, for
/// telling a leftover from a file still being written.
///
/// ## The rule
/// A temporary is its writer's for exactly as long as the writer holds an
/// exclusive `flock` on it: taken before the file counts as created, kept
/// until it is renamed into place or removed. The kernel releases the locks
/// of a process that dies, however it dies (SIGKILL, an abort inside an
/// encoder), so a temporary whose lock anyone can take has no writer left: it
/// is a leftover, whatever its age. Age proves nothing (a long export is old
/// and alive; a killed one is young and dead).
///
/// Creating a file and locking it are two steps, so a sweep can come between
/// them. A sweep therefore unlinks only while it holds the lock and only the
/// file it locked (same inode under that name); a writer that finds the lock
/// taken, or its file gone from under its name once it holds the lock, starts
/// again under a new name. Either way no live writer loses its file and no
/// leftover stays. See flock(2): the lock belongs to the open file
/// description, which is why a descriptor opened anew by another process, or
/// by this one, contends for it.
public final class TemporaryFile {
    /// Where the file is.
    public let path: String
    /// Its name in its folder.
    public let name: String
    /// Open for reading and writing, locked, until `discard()` or `closeDescriptor()`.
    public private(set) var descriptor: Int32
    /// What messages name for it: the destination a user named, or its own path.
    public let shownPath: String
    /// Its slot in `InterruptCleanup`, which removes it if a signal ends the
    /// process while it is still a temporary (nil: the table was full).
    private var cleanupSlot: Int?

    /// Creates and locks a new temporary in `directory` (which must exist).
    /// `purpose` is a lowercase word naming the writer (`export`, `restore`).
    /// - Throws: `.storage` when the folder cannot be written.
    public convenience init(in directory: String, purpose: String, fileExtension: String = "part") throws {
        precondition(TemporaryFile.isPurpose(purpose), "a temporary's purpose is a lowercase word")
        try self.init(in: directory, prefix: "." + purpose + "-",
                      suffix: fileExtension == "part" ? ".part" : "." + fileExtension + ".part", shownPath: nil)
    }

    /// Creates and locks a new temporary `<prefix><16 hex><suffix>` in
    /// `directory`; messages about it name `shownPath` (the user's
    /// destination) when given, else its own path.
    public init(in directory: String, prefix: String, suffix: String, shownPath: String?) throws {
        for _ in 0..<TemporaryFile.attempts {
            let name = prefix + FileSystem.randomToken() + suffix
            let path = directory + "/" + name
            let shown = shownPath ?? path
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw FileSystem.storageError(.creating, shown)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                // A sweep holds it (and removes it) or a check is looking at it: not ours to use.
                TemporaryFile.unlinkIfStillNamed(descriptor, path)
                close(descriptor)
                if code == EWOULDBLOCK || code == EINTR { continue }
                throw FileSystem.storageError(.locking, shown, code: code)
            }
            guard TemporaryFile.isStillNamed(descriptor, path) else {
                // A sweep removed it between the create and the lock.
                close(descriptor)
                continue
            }
            self.name = name
            self.path = path
            self.descriptor = descriptor
            self.shownPath = shown
            self.cleanupSlot = InterruptCleanup.register(path)
            return
        }
        throw FileSystem.storageError(.creating, shownPath ?? directory + "/" + prefix + "….part", code: EAGAIN)
    }

    /// Takes over the finished file at `existing` (in the same file system
    /// as `directory`) as a new temporary of `purpose` in `directory`: locked
    /// first, then renamed, so no sweep ever finds it unlocked under a
    /// temporary's name. For a file kept under a name of its own until it is
    /// used (sync's blobs) that must then go the way of any temporary.
    /// - Throws: `.storage` when it cannot be opened, locked or renamed.
    public init(adopting existing: String, in directory: String, purpose: String) throws {
        precondition(TemporaryFile.isPurpose(purpose), "a temporary's purpose is a lowercase word")
        let descriptor = open(existing, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw FileSystem.storageError(.opening, existing) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            throw FileSystem.storageError(.locking, existing, code: code)
        }
        for _ in 0..<TemporaryFile.attempts {
            let name = "." + purpose + "-" + FileSystem.randomToken() + ".part"
            let path = directory + "/" + name
            // RENAME_NOREPLACE's effect without it: a name taken is tried again.
            if access(path, F_OK) == 0 { continue }
            guard rename(existing, path) == 0 else {
                let code = errno
                close(descriptor)
                throw FileSystem.storageError(.renaming, existing, code: code)
            }
            self.name = name
            self.path = path
            self.descriptor = descriptor
            self.shownPath = path
            self.cleanupSlot = InterruptCleanup.register(path)
            return
        }
        close(descriptor)
        throw FileSystem.storageError(.creating, directory + "/." + purpose + "-….part", code: EAGAIN)
    }

    deinit { closeDescriptor() }

    /// Flushes the file's bytes to the disk.
    public func sync() throws {
        try FileSystem.fsyncFile(descriptor, path: shownPath)
    }

    /// Removes the file (after a failure): unlinked while still locked, then closed.
    public func discard() {
        if descriptor >= 0 { TemporaryFile.unlinkIfStillNamed(descriptor, path) }
        closeDescriptor()
    }

    /// Closes the file, which releases its lock: call it once the file has
    /// been renamed into place (it is then no temporary any more). Its path
    /// leaves `InterruptCleanup` only now: a signal between the rename and
    /// this finds nothing under the old name, and one between an unlink and
    /// this, likewise.
    public func closeDescriptor() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if let slot = cleanupSlot {
            InterruptCleanup.unregister(slot)
            cleanupSlot = nil
        }
    }

    // MARK: Leftovers

    /// True for names this type makes (any purpose, or one of `purposes`).
    public static func isTemporaryName(_ name: String, purposes: Set<String>? = nil) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".part"), let dash = name.firstIndex(of: "-") else { return false }
        let purpose = String(name[name.index(after: name.startIndex)..<dash])
        guard isPurpose(purpose), purposes.map({ $0.contains(purpose) }) ?? true else { return false }
        let rest = name[name.index(after: dash)...].dropLast(".part".count)
        let token = rest.prefix(16)
        guard token.count == 16, token.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return false }
        let tail = rest.dropFirst(16)
        return tail.isEmpty
            || (tail.first == "." && (2...9).contains(tail.count) && tail.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// Whether the temporary at `path` has no writer now: a regular file of
    /// this user whose lock could be taken. Changes nothing (a check that
    /// reports); `removeIfAbandoned` is what a sweep uses.
    public static func isAbandoned(_ path: String) -> Bool {
        withLockedLeftover(path) { _ in true } ?? false
    }

    /// Removes the temporary at `path` when it has no writer (see the type's
    /// documentation), holding its lock while it does. Returns whether it did.
    @discardableResult
    public static func removeIfAbandoned(_ path: String) -> Bool {
        withLockedLeftover(path) { descriptor in unlinkIfStillNamed(descriptor, path) } ?? false
    }

    /// Removes every abandoned temporary in `directory` (of `purposes` only,
    /// when given): what a writer runs before it writes into a folder, so that
    /// a killed writer's temporary goes with the next write there. Returns the
    /// names removed; a folder that cannot be listed has none.
    @discardableResult
    public static func removeAbandoned(in directory: String, purposes: Set<String>? = nil) -> [String] {
        guard let names = try? FileSystem.names(in: directory) else { return [] }
        var removed: [String] = []
        for name in names where isTemporaryName(name, purposes: purposes) {
            if removeIfAbandoned(directory + "/" + name) { removed.append(name) }
        }
        if !removed.isEmpty { try? FileSystem.fsyncDirectory(directory) }
        return removed
    }

    /// Removes every abandoned temporary in `directory` whose name
    /// `isCandidate` accepts (see `isName(_:prefix:suffix:)`), each under its
    /// lock. Returns the names removed.
    @discardableResult
    public static func removeAbandoned(in directory: String, where isCandidate: (String) -> Bool) -> [String] {
        guard let names = try? FileSystem.names(in: directory) else { return [] }
        var removed: [String] = []
        for name in names where isCandidate(name) {
            if removeIfAbandoned(directory + "/" + name) { removed.append(name) }
        }
        if !removed.isEmpty { try? FileSystem.fsyncDirectory(directory) }
        return removed
    }

    /// Whether `name` is `<prefix><16 hex digits><suffix>`, a name `init` makes.
    public static func isName(_ name: String, prefix: String, suffix: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix),
              name.utf8.count == prefix.utf8.count + 16 + suffix.utf8.count else { return false }
        return name.utf8.dropFirst(prefix.utf8.count).prefix(16).allSatisfy {
            (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
        }
    }

    // MARK: - Private

    /// New names to try before giving up: each failure means a sweep was
    /// racing this very name, which does not happen eight times running.
    private static let attempts = 8

    private static func isPurpose(_ purpose: String) -> Bool {
        !purpose.isEmpty && purpose.utf8.allSatisfy { (0x61...0x7A).contains($0) }
    }

    /// Runs `body` with the temporary at `path` open and locked, when it is a
    /// regular file of this user that no one else holds; nil otherwise. The
    /// open neither follows a link nor waits on a FIFO.
    private static func withLockedLeftover<T>(_ path: String, _ body: (Int32) -> T) -> T? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
              flock(descriptor, LOCK_EX | LOCK_NB) == 0, isStillNamed(descriptor, path) else { return nil }
        return body(descriptor)
    }

    /// Whether `path` still names the file open as `descriptor`.
    private static func isStillNamed(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && lstat(path, &named) == 0
            && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    @discardableResult
    private static func unlinkIfStillNamed(_ descriptor: Int32, _ path: String) -> Bool {
        isStillNamed(descriptor, path) && unlink(path) == 0
    }
}
