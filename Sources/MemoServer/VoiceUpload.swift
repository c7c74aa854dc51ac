#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `POST /api/v1/voice`: the raw audio body, written as it comes off the
/// socket (never held in memory) to a temporary file in the voice library's
/// folder, which, once complete, the same one-pass scan as `voice import`
/// reads and which then becomes the memo's file itself, renamed into place:
/// the audio is written once, as by `voice import`. An upload that is cut
/// off, refused or too large stores nothing: its temporary is removed, and
/// one a crash leaves is held by no writer's lock, so the next import's
/// sweep removes it.
///
/// The body is written to a file before the scan rather than handed to
/// libsndfile as it arrives because libsndfile reads by offset (it seeks,
/// e.g. to a WAV's chunks).
final class VoiceUpload: RequestBodyReceiver {
    private let services: ServerServices
    private let request: Request
    private let options: ImportOptions
    private var spool: TemporaryFile?
    /// The scan, running while the body arrives when its length is declared.
    private var scan: ArrivingUploadScan?
    /// The body's SHA-256 as it arrives, when the request has an
    /// `Idempotency-Key`: a retry with the same key must be the same audio
    /// (it is never held in memory). Only then: hashing an hour of WAV
    /// took a second, six times the import's own time.
    private let digest: SHA256Digest?
    /// Body bytes not yet written: libmicrohttpd hands the body over in
    /// pieces of its connection's read buffer (about 16 KiB), and writing
    /// each at once, and waking the scan for each, cost an hour of WAV
    /// 20,500 writes and 40,000 futex calls against `voice import`'s 300
    /// writes; the server's CPU for it was 0.35-0.42 s against the
    /// import's 0.17 s (strace -c, /proc/PID/stat).
    private var pending: [UInt8] = []
    private static let writeSize = 1 << 20

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
        let spool = try TemporaryFile(in: directory, purpose: "upload")
        self.spool = spool
        digest = request.headers["Idempotency-Key"] == nil ? nil : try SHA256Digest()
        if let length = request.declaredBodyLength, length > 0, length <= UInt64(Int64.max) {
            scan = ArrivingUploadScan(spool: spool, length: Int64(length), name: shownName)
        }
    }

    deinit {
        // Neither finish nor abandon came (the server is going away): the
        // scan's thread must not wait for bytes forever.
        scan?.cancel()
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        guard spool != nil, chunk.count > 0 else { return }
        digest?.update(chunk)
        if pending.isEmpty { pending.reserveCapacity(VoiceUpload.writeSize) }
        pending.append(contentsOf: chunk)
        if pending.count >= VoiceUpload.writeSize { try writePending() }
    }

    /// Writes the bytes gathered so far and tells the scan they are there.
    private func writePending() throws {
        guard let spool, !pending.isEmpty else { return }
        try pending.withUnsafeBytes { bytes in
            try FileSystem.writeAll(spool.descriptor, bytes.baseAddress!, count: bytes.count, path: spool.path)
        }
        scan?.arrived(count: pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    func finish() throws -> Response {
        try writePending()
        pending = []
        guard let spool else { throw HTTPError(status: 500, en: "the upload was already finished", ko: "업로드가 이미 끝났습니다") }
        self.spool = nil
        let scan = self.scan
        self.scan = nil
        var isTaken = false
        var isScanJoined = scan == nil
        defer {
            // A replayed answer (or a refusal) leaves the spool to no memo;
            // the scan's thread, if not joined yet, must not outlive it.
            if !isScanJoined { scan?.cancel() }
            if !isTaken { spool.discard() }
        }
        // A retried upload gets the first answer and makes no second memo.
        return try services.idempotency.perform(request, bodyDigest: digest?.finish() ?? []) {
            isScanJoined = true
            let scanned = try scan?.finish()
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
        pending = []
        // The scan reads the spool: it ends before the file goes.
        scan?.cancel()
        scan = nil
        spool?.discard()
        spool = nil
    }
}
