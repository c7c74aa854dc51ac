#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// The one pass of an import: libsndfile reads the source through this
/// stream (its virtual I/O, `sf_open_virtual`; FFmpeg through an
/// `AVIOContext` made of the same calls), and every byte the stream
/// reads for the first time, in file order, also goes to the checksum and to
/// the copy. So the decode, the checksum and the copy share one read of the
/// source, and memory holds one chunk, whatever the file's length.
///
/// libsndfile may seek. Reading behind the high-water mark re-reads the source
/// (from the page cache) without feeding the checksum again; a read past it
/// first reads the gap, so the checksum and the copy stay in file order.
/// `finish()` reads whatever tail the decoder never asked for.
/// See http://libsndfile.github.io/libsndfile/api.html#open_virtual
public final class TeeStream {
    /// Chunk size: large enough that syscalls are rare, small enough to stay
    /// in cache.
    public static let defaultChunkSize = 1 << 20
    /// How many copied bytes may wait before the kernel is told to start
    /// writing them, so that the final fsync finds little left to do.
    static let writeBehind: Int64 = 16 << 20

    let source: ByteSource
    let chunkSize: Int
    let checksum = StreamingChecksum()
    /// Where first-read bytes are copied; nil to checksum only (fuzzing).
    let copyDescriptor: Int32?
    /// How a failed write names the copy.
    let copyPath: String
    private let buffer: UnsafeMutableRawPointer
    /// The chunk being read: `buffer`, or bytes the source lent (`ByteSource.lend`).
    private var chunk: UnsafeRawPointer
    private var bufferStart: Int64 = 0
    private var bufferCount = 0
    private(set) var position: Int64 = 0
    private var syncedUpTo: Int64 = 0
    /// Every byte before this offset went to the checksum and the copy.
    public private(set) var highWater: Int64 = 0
    /// The first failure of the source or the copy; the decode is stopped by
    /// reporting the end of the file, and the importer reports this instead.
    public private(set) var failure: Error?
    /// The first bytes of the source, kept to name formats libsndfile refuses.
    public private(set) var head: [UInt8] = []
    /// When true, a seek relative to the end fails, so that a decoder cannot
    /// learn the length that way (see `SndFileDecoder` for why MPEG wants that);
    /// libsndfile still gets it from `get_filelen`.
    var hidesEnd = false

    /// - Parameter chunkSize: bytes per read of the source (tests make it tiny
    ///   to exercise seeks across chunks).
    public init(source: ByteSource, copyDescriptor: Int32?, copyPath: String = "the copy",
                chunkSize: Int = TeeStream.defaultChunkSize) {
        self.source = source
        self.copyDescriptor = copyDescriptor
        self.copyPath = copyPath
        self.chunkSize = max(1, chunkSize)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: self.chunkSize, alignment: 64)
        chunk = UnsafeRawPointer(buffer)
    }

    deinit { buffer.deallocate() }

    /// Reads and records the part of the source that the decoder never read.
    public func finish() throws {
        while failure == nil, load(at: highWater) > 0 {}
        if let failure { throw failure }
    }

    /// The virtual I/O table that routes libsndfile's calls to a stream passed
    /// as `user_data`.
    static var virtualIO: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { data in teeStream(data).source.length },
            seek: { offset, whence, data in teeStream(data).seek(offset, whence: whence) },
            read: { pointer, count, data in
                guard let pointer else { return 0 }
                return teeStream(data).read(into: pointer, count: count)
            },
            write: { _, _, _ in 0 },
            tell: { data in teeStream(data).position })
    }

    /// Moves the read position as `lseek` would; -1 for a position before the start.
    func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END:
            if hidesEnd { return -1 }
            base = source.length
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return target
    }

    /// Reads up to `count` bytes at the read position and moves past them;
    /// 0 at the end or after a failure (see `failure`).
    func read(into pointer: UnsafeMutableRawPointer, count: sf_count_t) -> sf_count_t {
        guard count > 0, failure == nil else { return 0 }
        var done = 0
        let wanted = Int(count)
        while done < wanted {
            if position < bufferStart || position >= bufferStart + Int64(bufferCount) {
                if load(at: position) == 0 { break }
            }
            let offsetInBuffer = Int(position - bufferStart)
            let available = min(wanted - done, bufferCount - offsetInBuffer)
            (pointer + done).copyMemory(from: chunk + offsetInBuffer, byteCount: available)
            done += available
            position += Int64(available)
        }
        return sf_count_t(done)
    }

    // MARK: - Private

    /// Fills the buffer from `offset`, first reading any gap up to it so that
    /// the checksum and the copy see every byte in order. Returns the bytes
    /// now in the buffer (0 at the end or on failure).
    @discardableResult
    private func load(at offset: Int64) -> Int {
        while highWater < offset {
            if loadChunk(at: highWater) == 0 { return 0 }
        }
        return loadChunk(at: offset)
    }

    private func loadChunk(at offset: Int64) -> Int {
        guard failure == nil else { return 0 }
        let count: Int
        do {
            if let lent = try source.lend(at: offset, count: chunkSize) {
                count = lent.count
                chunk = lent.baseAddress ?? UnsafeRawPointer(buffer)
            } else {
                count = try source.read(at: offset, into: buffer, count: chunkSize)
                chunk = UnsafeRawPointer(buffer)
            }
        } catch {
            failure = error
            return 0
        }
        bufferStart = offset
        bufferCount = count
        let end = offset + Int64(count)
        if end > highWater {
            let skip = Int(highWater - offset)
            record(chunk + skip, count: count - skip)
            highWater = end
        }
        return failure == nil ? count : 0
    }

    /// Feeds first-read bytes to the checksum and the copy.
    private func record(_ bytes: UnsafeRawPointer, count: Int) {
        if head.count < 64 {
            head.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: min(count, 64 - head.count)))
        }
        checksum.update(bytes, count: count)
        guard let descriptor = copyDescriptor else { return }
        do {
            try FileSystem.writeAll(descriptor, bytes, count: count, path: copyPath)
        } catch {
            failure = error
            return
        }
        // Start writeback of what is written so far (on Linux, DONTNEED
        // first starts writing dirty pages, then drops clean ones), so that
        // the fsync at the end overlaps with the decode instead of following
        // it, and the copy does not crowd the page cache.
        let written = highWater + Int64(count)
        if written - syncedUpTo >= TeeStream.writeBehind {
            _ = posix_fadvise(descriptor, off_t(syncedUpTo), off_t(written - syncedUpTo), POSIX_FADV_DONTNEED)
            syncedUpTo = written
        }
    }
}

/// The stream behind libsndfile's `user_data` (the caller keeps it alive).
private func teeStream(_ data: UnsafeMutableRawPointer?) -> TeeStream {
    Unmanaged<TeeStream>.fromOpaque(data!).takeUnretainedValue()
}
