#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `POST /api/v1/import`: the export document as the request body, written
/// to a temporary file in the data home as it comes off the socket, then
/// imported from that file as `memoapp import FILE` imports one (streamed,
/// validated whole before anything is stored, all or nothing). The server
/// never holds the document, so it can take back its own export of a large
/// collection (it parsed bodies of at most 64 MiB in memory before). A body
/// cut off or refused stores nothing; a temporary a crash leaves is held by
/// no lock, and the next import upload removes it.
final class ImportUpload: RequestBodyReceiver {
    static let temporaryPurpose = "import"

    private let services: ServerServices
    private let request: Request
    private var spool: TemporaryFile?
    private let digest: SHA256Digest

    init(services: ServerServices, request: Request) throws {
        self.services = services
        self.request = request
        let home = services.home.path
        _ = TemporaryFile.removeAbandoned(in: home, purposes: [ImportUpload.temporaryPurpose])
        digest = try SHA256Digest()
        spool = try TemporaryFile(in: home, purpose: ImportUpload.temporaryPurpose)
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        guard let spool, let base = chunk.baseAddress, chunk.count > 0 else { return }
        try FileSystem.writeAll(spool.descriptor, base, count: chunk.count, path: spool.path)
        digest.update(chunk)
    }

    func finish() throws -> Response {
        guard let spool else { throw HTTPError(status: 500, en: "the upload was already finished", ko: "업로드가 이미 끝났습니다") }
        defer {
            spool.discard()
            self.spool = nil
        }
        return try services.idempotency.perform(request, bodyDigest: digest.finish()) {
            guard lseek(spool.descriptor, 0, SEEK_SET) == 0 else {
                throw FileSystem.storageError(.reading, spool.path)
            }
            // A connection of its own: an import runs long and must not hold
            // the pool's writer (every other change) while it checks the document.
            let importer = try DocumentImport(workspace: try MemoRoutes.dedicatedWorkspace(services), audioFolders: [])
            let report = try importer.run(.file(descriptor: spool.descriptor, path: spool.path), name: "request body")
            services.afterCommit?()
            return .json(WireFormat.documentImport(report))
        }
    }

    func abandon(_ reason: BodyFailure) {
        spool?.discard()
        spool = nil
    }
}
