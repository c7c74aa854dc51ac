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
}

/// A regular file opened read-only. `pread` keeps every read independent of
/// a shared file position, so libsndfile's seeks cost nothing here.
public final class FileByteSource: ByteSource {
    /// The path it was opened with.
    public let path: String
    /// The file's size when opened.
    public let length: Int64
    let descriptor: Int32

    /// Opens `path`. A missing or unreadable path, or one that is not a
    /// regular file, is `.noInput` (exit 66).
    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw MemoError(.noInput, en: "cannot open \(path): \(reason)",
                            ko: "\(path) 파일을 열 수 없습니다: \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw MemoError(.noInput, en: "\(path) is not a regular file",
                            ko: "\(path)은(는) 일반 파일이 아닙니다")
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
