import MemoCore
import MemoKit
import VoiceMemos

/// The thread that takes an upload's body from `UploadBuffers` and writes
/// it to the spool: `ArrivingUploadScan` (scanning as it writes) or
/// `SpoolWriter` (writing only).
protocol UploadConsumer: AnyObject {
    /// After `UploadBuffers.endBody`: waits until every byte is written;
    /// the scan's result when the consumer scanned. Throws what failed.
    func finish() throws -> ScannedAudio?
    /// After `UploadBuffers.cancel`: waits for the thread to end.
    func cancel()
}

/// Writes a body of no declared length (sent chunked) to the spool, on a
/// thread of its own, so that the polling thread does not wait on the disk;
/// the import's scan reads the spool once it is complete.
final class SpoolWriter: UploadConsumer, @unchecked Sendable {
    private let thread: HelperThread
    private let outcome: Outcome

    /// Set by the writer's thread, read after it was joined.
    private final class Outcome: @unchecked Sendable {
        var failure: Error?
    }

    init(buffers: UploadBuffers, spool: TemporaryFile) {
        let outcome = Outcome()
        self.outcome = outcome
        let descriptor = spool.descriptor
        let path = spool.path
        thread = HelperThread {
            do {
                while let buffer = try buffers.next() {
                    defer { buffers.recycle(buffer) }
                    try FileSystem.writeAll(descriptor, buffer.start, count: buffer.count, path: path)
                }
                buffers.stop(refusal: nil)
            } catch {
                outcome.failure = error
                // A write that fails refuses the body at the next piece.
                buffers.stop(refusal: error is UploadBuffers.CutOff ? nil : error)
            }
        }
    }

    func finish() throws -> ScannedAudio? {
        thread.join()
        if let failure = outcome.failure { throw failure }
        return nil
    }

    func cancel() {
        thread.join()
    }
}
