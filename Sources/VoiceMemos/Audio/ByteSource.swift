#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Bytes that an import reads by offset: a file on disk, or (for the fuzz
/// target and tests) a buffer in memory.
public protocol ByteSource: AnyObject {
    /// The length in bytes when the read started.
    var length: Int64 { get }
    /// Reads up to `count` bytes at `offset` into `buffer`; 0 at the end.
    /// Throws when the medium fails, not at the end.
    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
    /// Up to `count` bytes at `offset` where they already are in memory,
    /// lent without a copy until the next call on the source; empty at the
    /// end; nil when the source has none to lend there (`read` copies then).
    func lend(at offset: Int64, count: Int) throws -> UnsafeRawBufferPointer?
}

extension ByteSource {
    /// Files and buffers lend nothing: `read` it is.
    public func lend(at offset: Int64, count: Int) throws -> UnsafeRawBufferPointer? { nil }
}

/// A regular file opened read-only. `pread` keeps every read independent of
/// a shared file position, so libsndfile's seeks cost nothing here.
public final class FileByteSource: ByteSource {
    /// The path it was opened with.
    public let path: String
    /// The file's size when opened.
    public let length: Int64
    let descriptor: Int32

    /// Opens `path`, which must be a regular file: a file the user names may
    /// be reached through a symbolic link, one in the library folder may not
    /// (`followsSymbolicLinks: false`: a link planted there must not make a
    /// command read, or copy out, whatever it points at). A missing or
    /// unreadable path, a link where none is followed, or anything but a
    /// regular file is `.noInput` (exit 66); a FIFO is refused, not waited on.
    public init(path: String, followsSymbolicLinks: Bool = true) throws {
        let descriptor = try ChecksummedCopy.openRegularFile(path, followsSymbolicLinks: followsSymbolicLinks)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = FileSystem.storageError(.reading, path)
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        self.length = Int64(status.st_size)
        // The import reads front to back; let the kernel read ahead generously.
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit { close(descriptor) }

    /// Reads with `pread`, retrying interruptions.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let result = pread(descriptor, buffer, count, off_t(offset))
            if result >= 0 { return result }
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            throw MemoError(.noInput, en: "cannot read \(path): \(reason)",
                            ko: "\(path) 파일을 읽을 수 없습니다: \(reason)")
        }
    }
}

/// Bytes held in memory: what the fuzz target and unit tests feed in.
public final class MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    /// The buffer's size.
    public var length: Int64 { Int64(bytes.count) }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads with `pread`, retrying interruptions.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard offset >= 0, offset < Int64(bytes.count) else { return 0 }
        let start = Int(offset)
        let available = min(count, bytes.count - start)
        bytes.withUnsafeBytes { raw in
            buffer.copyMemory(from: raw.baseAddress! + start, byteCount: available)
        }
        return available
    }
}
