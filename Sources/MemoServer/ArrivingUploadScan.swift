import MemoCore
import MemoKit
import VoiceMemos

/// The import's scan of an upload (`AudioScanner`: decode, peaks, checksum)
/// running on a thread of its own while the body is still arriving, reading
/// the spool file as it grows (`ArrivingFileByteSource`). Receiving and
/// scanning then overlap, on two cores, instead of following each other;
/// without it an upload of an hour of audio took half as long again as
/// `voice import` of the same file.
///
/// Only for a body whose length the head declares: the source must know
/// where the file ends before the end has arrived.
final class ArrivingUploadScan: @unchecked Sendable {
    private let source: ArrivingFileByteSource
    private let outcome: Outcome
    private let thread: HelperThread

    /// Set by the scan's thread, read after it was joined.
    private final class Outcome: @unchecked Sendable {
        var result: Result<ScannedAudio, Error>?
    }

    /// Starts scanning `spool`, which will hold `length` bytes; `name` is
    /// how the scan's messages name the upload.
    init(spool: TemporaryFile, length: Int64, name: String) {
        let source = ArrivingFileByteSource(descriptor: spool.descriptor, path: spool.shownPath, length: length)
        let outcome = Outcome()
        self.source = source
        self.outcome = outcome
        thread = HelperThread {
            outcome.result = Result { try AudioScanner.scan(source, name: name) }
        }
    }

    /// `count` more bytes were written to the spool.
    func arrived(count: Int) {
        source.arrived(count: count)
    }

    /// The whole body arrived: the scan's result once it ends.
    func finish() throws -> ScannedAudio {
        thread.join()
        guard source.arrivedCount == source.length else {
            // libmicrohttpd hands over exactly the declared length or reports
            // the body cut off; anything else is a fault here, not the client's.
            throw MemoError(.internalFailure, en: "the upload ended after \(source.arrivedCount) of \(source.length) bytes",
                            ko: "업로드가 \(source.length)바이트 중 \(source.arrivedCount)바이트에서 끝났습니다")
        }
        return try outcome.result!.get()
    }

    /// The body will not be complete: ends the scan (its waiting read fails)
    /// and waits for its thread, which must not outlive the spool file.
    func cancel() {
        source.fail(MemoError(.badInput, en: "the upload was cut off", ko: "업로드가 중간에 끊겼습니다"))
        thread.join()
    }
}
