#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A file that another thread is still writing, front to back, up to a length
/// known in advance (an HTTP upload with a Content-Length, spooled to disk as
/// it comes off the socket): a read waits until the bytes it asks for have
/// arrived. It lets the import's scan run while the upload is still arriving
/// instead of after it, so an upload costs about the longer of the two rather
/// than their sum.
///
/// The writer calls `arrived(count:)` after each piece it wrote, then either
/// nothing more (the declared length is complete) or `fail` (the upload
/// stopped short: a reader waiting, or reading later, gets `.badInput`).
/// A read past the declared length returns 0, the end, as with a file.
public final class ArrivingFileByteSource: ByteSource, @unchecked Sendable {
    /// The declared length: the file's size once complete.
    public let length: Int64
    private let descriptor: Int32
    private let path: String
    private let monitor = Monitor()
    private var written: Int64 = 0
    private var failure: MemoError?

    /// Reads `descriptor` (open for reading, not owned: the writer closes it)
    /// as bytes arrive, up to `length`.
    public init(descriptor: Int32, path: String, length: Int64) {
        self.descriptor = descriptor
        self.path = path
        self.length = length
    }

    /// The writer wrote `count` more bytes at the end.
    public func arrived(count: Int) {
        monitor.locked {
            written += Int64(count)
            monitor.broadcast()
        }
    }

    /// The rest will never arrive: wakes a waiting reader with `error`.
    public func fail(_ error: MemoError) {
        monitor.locked {
            if failure == nil { failure = error }
            monitor.broadcast()
        }
    }

    /// How many bytes have arrived so far.
    public var arrivedCount: Int64 { monitor.locked { written } }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard offset >= 0, offset < length, count > 0 else { return 0 }
        let wanted = min(Int64(count), length - offset)
        let end = offset + wanted
        let available = try monitor.locked { () throws(MemoError) -> Int64 in
            // Waits for the whole request when it can come (libsndfile asks
            // for what a header or a block needs, and a short read would look
            // like the end of the file to it); a failure ends the wait.
            _ = monitor.wait(until: nil) { written >= end || failure != nil }
            if written >= end { return wanted }
            throw failure!
        }
        while true {
            let result = pread(descriptor, buffer, Int(available), off_t(offset))
            if result >= 0 { return result }
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            throw MemoError(.storage, en: "cannot read \(path): \(reason)",
                            ko: "\(path) 파일을 읽을 수 없습니다: \(reason)")
        }
    }
}
