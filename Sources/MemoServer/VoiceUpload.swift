#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `POST /api/v1/voice`: the raw audio body, handed as it comes off the
/// socket (never held whole in memory) through `UploadBuffers` to a thread
/// that writes it to a temporary file in the voice library's folder: with a
/// declared length the import's own one-pass scan (`ArrivingUploadScan`),
/// which decodes and writes as `voice import` does, else a `SpoolWriter`,
/// and the same scan reads the file once complete. The file then becomes
/// the memo's file itself, renamed into place: the audio is written once,
/// as by `voice import`. An upload that is cut off, refused or too large
/// stores nothing: its temporary is removed, and one a crash leaves is held
/// by no writer's lock, so the next import's sweep removes it.
///
/// The polling thread only copies each piece into a buffer: writing the
/// spool there too made it the upload's bottleneck (on tmpfs every write
/// allocates pages), receiving and writing one after the other.
/// The body is written to a file rather than only handed to libsndfile
/// because libsndfile reads by offset (it seeks, e.g. to a WAV's chunks):
/// a seek back re-reads the spool.
final class VoiceUpload: RequestBodyReceiver {
    private let services: ServerServices
    private let request: Request
    private let options: ImportOptions
    private var spool: TemporaryFile?
    /// The body on its way from the polling thread to the spool's writer.
    private let buffers = UploadBuffers()
    /// The thread that writes the spool: the scan itself when the length is
    /// declared, else a plain writer.
    private var consumer: UploadConsumer?
    /// The body's XXH3-128 as it arrives, when the request has an
    /// `Idempotency-Key`: a retry with the same key must be the same audio
    /// (it is never held in memory). XXH3, not the SHA-256 other bodies
    /// get: libsodium's SHA-256 of an hour of WAV took a second on the
    /// polling thread, six times the import's own time; and the digest only
    /// tells one client's retry from its own other body under the same key
    /// and target (`IdempotencyCache`), where a collision could only hand a
    /// client its own earlier answer.
    private let digest: StreamingChecksum?

    init(services: ServerServices, request: Request) throws {
        self.services = services
        self.request = request
        let name = request.queryValue("filename").map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        let shownName = name.flatMap { $0.isEmpty ? nil : $0 } ?? "upload"
        options = ImportOptions(title: request.queryValue("title"), tags: request.queryValues("tag"),
                                allowDuplicate: try request.queryBool("allow_duplicate"),
                                originalName: shownName)
        // In the library folder, whose sweep of abandoned temporaries (by
        // their lock, see `TemporaryFile`) removes one a crash left.
        let directory = services.home.voiceDirectory
        if !FileSystem.isDirectory(directory) { try FileSystem.makeDirectory(directory) }
        digest = request.headers["Idempotency-Key"] == nil ? nil : StreamingChecksum()
        let spool = try TemporaryFile(in: directory, purpose: "upload")
        self.spool = spool
        if let length = request.declaredBodyLength, length > 0, length <= UInt64(Int64.max) {
            consumer = ArrivingUploadScan(buffers: buffers, spool: spool, length: Int64(length), name: shownName)
        } else {
            consumer = SpoolWriter(buffers: buffers, spool: spool)
        }
    }

    deinit {
        // Neither finish nor abandon came (the server is going away): the
        // consumer's thread must not wait for bytes forever, and the spool,
        // once it is joined, goes as on any other failure.
        buffers.cancel()
        consumer?.cancel()
        spool?.discard()
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        guard spool != nil, chunk.count > 0 else { return }
        digest?.update(chunk.baseAddress!, count: chunk.count)
        try buffers.append(chunk)
    }

    func finish() throws -> Response {
        guard let spool, let consumer else {
            throw HTTPError(status: 500, en: "the upload was already finished", ko: "업로드가 이미 끝났습니다")
        }
        self.spool = nil
        self.consumer = nil
        buffers.endBody()
        var isTaken = false
        var isJoined = false
        defer {
            // A replayed answer (or a refusal) leaves the spool to no memo;
            // the consumer's thread, if not joined yet, must not outlive it.
            if !isJoined {
                buffers.cancel()
                consumer.cancel()
            }
            if !isTaken { spool.discard() }
        }
        // A retried upload gets the first answer and makes no second memo.
        return try services.idempotency.perform(request, bodyDigest: digest.map { Array($0.hexDigest.utf8) } ?? []) {
            // Every byte is in the spool before the import reads or renames it.
            isJoined = true
            let scanned = try consumer.finish()
            // A connection of its own: the scan takes as long as the audio is
            // long, and must not hold the pool's writer (every other change) meanwhile.
            let store = try MemoRoutes.dedicatedWorkspace(services).voiceStore()
            // The store takes the file over: it becomes the memo's, or is removed.
            isTaken = true
            let memo = try store.importWritten(spool, options: options, scanned: scanned)
            services.afterCommit?()
            var response = Items.response(WireFormat.voiceMemo(memo), for: request, status: 201)
            response.headers.set("Location", "/api/v1/voice/\(memo.id)")
            return response
        }
    }

    func abandon(_ reason: BodyFailure) {
        // The consumer writes the spool: it ends before the file goes.
        buffers.cancel()
        consumer?.cancel()
        consumer = nil
        spool?.discard()
        spool = nil
    }
}
