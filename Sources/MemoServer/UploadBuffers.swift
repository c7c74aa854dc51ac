import MemoCore

/// A bounded queue of request-body bytes between libmicrohttpd's polling
/// thread, which receives them, and the one thread that writes them to the
/// spool (the import's scan, or a plain `SpoolWriter`). The polling thread
/// only copies each piece into a buffer here and goes back to the socket;
/// it waits only when every buffer is full and unwritten, so receiving
/// and writing overlap instead of following each other.
///
/// Producer (the polling thread): `append`, then `endBody` or `cancel`.
/// Consumer (one thread): `next`, `recycle` each buffer it took, and `stop`
/// when it ends for any reason, so that the producer never waits for it.
final class UploadBuffers: @unchecked Sendable {
    /// One buffer: as big as the scan's chunk (`TeeStream`) and the writes
    /// the import makes, so that each write is of a MiB.
    static let bufferSize = 1 << 20
    /// Buffers in all: the most one upload holds in memory.
    static let bufferCount = 8

    /// A filled buffer, the consumer's until it is recycled.
    struct Buffer {
        let start: UnsafeMutableRawPointer
        let count: Int
    }

    /// What ends a consumer's wait when the body will not be complete.
    struct CutOff: Error {}

    private let monitor = Monitor()
    /// Every buffer made, freed at the end whoever holds it then.
    private var allocated: [UnsafeMutableRawPointer] = []
    private var free: [UnsafeMutableRawPointer] = []
    private var filled: [Buffer] = []
    private var isEnded = false
    private var isCancelled = false
    private var isStopped = false
    /// Why the consumer stopped, when that refuses the body at once.
    private var refusal: Error?
    /// The producer's buffer being filled (the producer's alone).
    private var current: UnsafeMutableRawPointer?
    private var currentCount = 0

    deinit {
        for buffer in allocated { buffer.deallocate() }
    }

    // MARK: Producer

    /// Copies `bytes` in, waiting only while every buffer is full. Once the
    /// consumer has stopped, bytes are dropped (the answer is already
    /// decided), or, when it stopped with a refusal, that is thrown.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            if current == nil {
                guard let buffer = try takeFreeBuffer() else { return }
                current = buffer
                currentCount = 0
            }
            let count = min(bytes.count - done, UploadBuffers.bufferSize - currentCount)
            (current! + currentCount).copyMemory(from: bytes.baseAddress! + done, byteCount: count)
            currentCount += count
            done += count
            if currentCount == UploadBuffers.bufferSize { handOverCurrent() }
        }
    }

    /// The whole body arrived: the last, partly filled buffer goes too, and
    /// the consumer's `next` returns nil once it has taken every buffer.
    func endBody() {
        if currentCount > 0 { handOverCurrent() }
        monitor.locked {
            isEnded = true
            monitor.broadcast()
        }
    }

    /// The body will not be complete: the consumer's `next` throws `CutOff`.
    func cancel() {
        monitor.locked {
            isCancelled = true
            monitor.broadcast()
        }
    }

    // MARK: Consumer

    /// The next filled buffer, in body order, once there is one; nil at the
    /// end of the body. Throws `CutOff` once the body will not be complete.
    func next() throws -> Buffer? {
        try monitor.locked { () throws -> Buffer? in
            _ = monitor.wait(until: nil) { !filled.isEmpty || isEnded || isCancelled }
            if isCancelled { throw CutOff() }
            return filled.isEmpty ? nil : filled.removeFirst()
        }
    }

    /// Gives a buffer `next` returned back to the producer.
    func recycle(_ buffer: Buffer) {
        monitor.locked {
            free.append(buffer.start)
            monitor.broadcast()
        }
    }

    /// The consumer takes no more: the producer's waits end, and its
    /// `append` drops what comes, or throws `refusal` when there is one.
    func stop(refusal: Error?) {
        monitor.locked {
            isStopped = true
            self.refusal = refusal
            free.append(contentsOf: filled.map(\.start))
            filled = []
            monitor.broadcast()
        }
    }

    // MARK: - Private

    /// A buffer to fill: a free one, a new one while fewer than
    /// `bufferCount` exist, else the first the consumer recycles. Nil once
    /// the consumer stopped without a refusal.
    private func takeFreeBuffer() throws -> UnsafeMutableRawPointer? {
        try monitor.locked { () throws -> UnsafeMutableRawPointer? in
            _ = monitor.wait(until: nil) { isStopped || !free.isEmpty || allocated.count < UploadBuffers.bufferCount }
            if isStopped {
                if let refusal { throw refusal }
                return nil
            }
            if let buffer = free.popLast() { return buffer }
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: UploadBuffers.bufferSize, alignment: 4096)
            allocated.append(buffer)
            return buffer
        }
    }

    private func handOverCurrent() {
        guard let buffer = current else { return }
        let count = currentCount
        current = nil
        currentCount = 0
        monitor.locked {
            if isStopped {
                free.append(buffer)
            } else {
                filled.append(Buffer(start: buffer, count: count))
            }
            monitor.broadcast()
        }
    }
}
