#if canImport(Glibc)
import Glibc
#endif

/// Notices writes to the data home's database by anyone (a server's
/// writer, a `memoapp` command, another server) through inotify on the
/// folder, and hands each burst of them to `onChange` on a thread of its
/// own. No polling: the thread sleeps in poll(2) until the kernel reports a
/// write or `stop` wakes it. The server's event feed and `memoapp remind`
/// both wake on it.
public final class DataHomeWatcher: @unchecked Sendable {
    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private var thread: HelperThread?
    /// The files whose writes matter: a commit writes the WAL; a checkpoint
    /// or a restore (a rename into place) changes the database file.
    private let names: Set<String> = ["memoapp.db", "memoapp.db-wal"]
    /// Where inotify's events are read, used by the thread alone: made once
    /// rather than zeroed anew at each of thousands of wake-ups a second.
    private let eventBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    /// Watches `directory`. Throws a storage error when inotify cannot
    /// (no watches left, the folder gone).
    public init(directory: String) throws {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw DataHomeWatcher.failure("inotify_init1") }
        // IN_MODIFY: a commit; IN_MOVED_TO and IN_CREATE: a file replaced whole.
        let mask = UInt32(IN_MODIFY) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(inotify, directory, mask) >= 0 else {
            close(inotify)
            throw DataHomeWatcher.failure("inotify_add_watch")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw DataHomeWatcher.failure("pipe")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (ends[0], ends[1])
    }

    deinit {
        eventBuffer.deallocate()
        close(inotify)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Starts the thread; `onChange` runs on it after each burst of writes.
    public func start(_ onChange: @escaping @Sendable () -> Void) {
        thread = HelperThread { [self] in run(onChange) }
    }

    /// Wakes the thread, lets it end, and waits for it.
    public func stop() {
        send(DataHomeWatcher.stopByte)
        thread?.join()
        thread = nil
    }

    /// Asks for a look now: this process has just committed a write.
    public func poke() {
        send(DataHomeWatcher.pokeByte)
    }

    private static let stopByte: UInt8 = 1
    private static let pokeByte: UInt8 = 2
    /// Looks again this long after a burst of writes by another process,
    /// then stops looking. A writer's last WAL write comes just before its
    /// commit is published in the shared-memory index, which inotify cannot
    /// see, so a look right at the write may find the commit not yet there.
    private static let followUps: [Int32] = [50, 500]

    private func send(_ byte: UInt8) {
        var byte = byte
        _ = write(stopPipe.write, &byte, 1)
    }

    private func run(_ onChange: () -> Void) {
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        var pending: [Int32] = []
        while true {
            let ready = poll(&descriptors, 2, pending.first ?? -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return }
            if ready == 0 {
                pending.removeFirst()
                onChange()
                continue
            }
            if descriptors[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                let count = bytes.withUnsafeMutableBytes { read(stopPipe.read, $0.baseAddress, $0.count) }
                if count <= 0 || bytes.prefix(count).contains(DataHomeWatcher.stopByte) { return }
                // The poker committed before it poked: the write is visible now.
                _ = drainMatters()
                onChange()
                continue
            }
            if drainMatters() {
                onChange()
                pending = DataHomeWatcher.followUps
            }
        }
    }

    /// Reads every queued event; whether one was about the database (or the
    /// queue overflowed, so any may have been).
    private func drainMatters() -> Bool {
        var matters = false
        let buffer = eventBuffer
        while true {
            let count = read(inotify, buffer.baseAddress, buffer.count)
            if count <= 0 { return matters }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || names.contains(String(decoding: nameBytes, as: UTF8.self)) {
                    matters = true
                }
                offset += 16 + length
            }
        }
    }

    private static func failure(_ call: String) -> Error {
        let reason = String(cString: strerror(errno))
        return WatcherError(description: "\(call): \(reason)")
    }
}

/// Why the watcher could not start (the failed call and errno's words).
public struct WatcherError: Error, CustomStringConvertible {
    public let description: String
}
