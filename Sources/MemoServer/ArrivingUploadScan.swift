#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import MemoKit
import VoiceMemos

/// The import's scan of an upload (`AudioScanner`: decode, peaks, checksum
/// and the copy to the spool), on a thread of its own while the body is
/// still arriving: the same one pass as `voice import`, reading the body
/// from `UploadBuffers` instead of a file. The polling thread only receives
/// and queues; this thread decodes and writes the spool; neither waits for
/// the other unless the queue is full or empty, and the spool is read back
/// only where the decoder seeks back.
///
/// Only for a body whose length the head declares: the decoder must know
/// where the file ends before the end has arrived.
final class ArrivingUploadScan: UploadConsumer, @unchecked Sendable {
    private let source: QueuedBodySource
    private let outcome: Outcome
    private let thread: HelperThread

    /// Set by the scan's thread, read after it was joined.
    private final class Outcome: @unchecked Sendable {
        var result: Result<ScannedAudio, Error>?
    }

    /// Starts scanning the body `buffers` will carry, `length` bytes,
    /// writing it to `spool`; `name` is how the scan's messages name it.
    init(buffers: UploadBuffers, spool: TemporaryFile, length: Int64, name: String) {
        let source = QueuedBodySource(buffers: buffers, descriptor: spool.descriptor, path: spool.shownPath,
                                      length: length)
        let outcome = Outcome()
        self.source = source
        self.outcome = outcome
        let descriptor = spool.descriptor
        let path = spool.shownPath
        thread = HelperThread {
            let result = Result { try AudioScanner.scan(source, name: name, copyTo: descriptor, copyPath: path) }
            outcome.result = result
            source.release()
            // A spool that cannot be written refuses the body now, as a
            // write on the polling thread did; audio that does not decode is
            // answered once the body is in, and the rest of it is dropped.
            if case let .failure(error) = result, (error as? MemoError)?.kind == .storage {
                buffers.stop(refusal: error)
            } else {
                buffers.stop(refusal: nil)
            }
        }
    }

    /// The whole body arrived (`endBody` was called): the scan's result once it ends.
    func finish() throws -> ScannedAudio? {
        thread.join()
        let result = outcome.result!
        guard case .success = result, source.handedOut != source.length else { return try result.get() }
        // libmicrohttpd hands over exactly the declared length or reports
        // the body cut off; anything else is a fault here, not the client's.
        throw MemoError(.internalFailure, en: "the upload ended after \(source.handedOut) of \(source.length) bytes",
                        ko: "업로드가 \(source.length)바이트 중 \(source.handedOut)바이트에서 끝났습니다")
    }

    /// Waits for the thread once `UploadBuffers.cancel` has ended its wait:
    /// it must not outlive the spool file.
    func cancel() {
        thread.join()
    }
}

/// The body as the scan's `ByteSource`: lent front to back straight from
/// the queue's buffers (the scan's copy writes each to the spool before it
/// asks for more), and re-read, where the decoder seeks back, from the
/// spool, which then holds every byte lent before.
private final class QueuedBodySource: ByteSource, @unchecked Sendable {
    let length: Int64
    private let buffers: UploadBuffers
    private let descriptor: Int32
    private let path: String
    /// Bytes handed out from the queue (the scan's thread's alone until joined).
    private(set) var handedOut: Int64 = 0
    private var current: UploadBuffers.Buffer?
    private var usedOfCurrent = 0

    init(buffers: UploadBuffers, descriptor: Int32, path: String, length: Int64) {
        self.buffers = buffers
        self.descriptor = descriptor
        self.path = path
        self.length = length
    }

    func lend(at offset: Int64, count: Int) throws -> UnsafeRawBufferPointer? {
        guard offset >= handedOut else { return nil }
        guard offset == handedOut else {
            throw MemoError(.internalFailure, en: "the scan skipped bytes of the upload", ko: "스캔이 업로드의 일부를 건너뛰었습니다")
        }
        // What was lent before is in the spool now: its buffer can be filled again.
        if let current, usedOfCurrent == current.count { release() }
        guard offset < length, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        if current == nil {
            do {
                guard let next = try buffers.next() else { return UnsafeRawBufferPointer(start: nil, count: 0) }
                current = next
                usedOfCurrent = 0
            } catch is UploadBuffers.CutOff {
                throw MemoError(.badInput, en: "the upload was cut off", ko: "업로드가 중간에 끊겼습니다")
            }
        }
        let piece = Int(min(Int64(min(count, current!.count - usedOfCurrent)), length - offset))
        let lent = UnsafeRawBufferPointer(start: current!.start + usedOfCurrent, count: piece)
        usedOfCurrent += piece
        handedOut += Int64(piece)
        return lent
    }

    /// Only the part already lent, from the spool (`lend` serves the rest).
    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard offset >= 0, offset < handedOut, count > 0 else { return 0 }
        while true {
            let result = pread(descriptor, buffer, Int(min(Int64(count), handedOut - offset)), off_t(offset))
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw FileSystem.storageError(.reading, path)
        }
    }

    /// Gives the buffer being lent back to the queue.
    func release() {
        if let current { buffers.recycle(current) }
        current = nil
    }
}
