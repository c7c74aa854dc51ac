import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// An anonymous file in memory (`memfd_create(2)`): for a writer that needs
/// a file it can seek in (libsndfile goes back to fill in a WAV header) when
/// the bytes go to standard output. Nothing reaches a disk, nothing has a
/// name, and nothing is left behind when the process dies; the front end
/// copies the finished bytes to its output.
public final class ScratchFile {
    public private(set) var descriptor: Int32

    /// - Throws: `.storage` when the kernel gives no such file (before Linux
    ///   3.17, or out of memory).
    public init() throws {
        guard let create = ScratchFile.memfdCreate else {
            throw FileSystem.storageError(.creating, "a file in memory", code: ENOSYS)
        }
        descriptor = create("memoapp-output", ScratchFile.closeOnExec)
        guard descriptor >= 0 else { throw FileSystem.storageError(.creating, "a file in memory") }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Hands the content, from its start, to `body` a chunk at a time.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, offset)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileSystem.storageError(.reading, "a file in memory") }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += off_t(count)
        }
    }

    // MARK: - Private

    /// Glibc has declared `memfd_create` since 2.27, but Swift's Glibc module
    /// does not import it: found by name instead.
    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    private static let memfdCreate: MemfdCreate? = dlsym(nil, "memfd_create").map {
        unsafeBitCast($0, to: MemfdCreate.self)
    }
    /// `MFD_CLOEXEC` from linux/memfd.h.
    private static let closeOnExec: UInt32 = 1
}
