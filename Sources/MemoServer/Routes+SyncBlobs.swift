import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `/api/v1/sync/blobs/{checksum}`: voice memos' audio on its way between a
/// device and the hub (docs/sync.md), named by its checksum: uploaded before
/// the change that names it, in pieces that resume where a cut connection
/// stopped (`Content-Range`), checked when whole; downloaded by range.
extension MemoRoutes {
    static func addSyncBlobs(to router: inout Router, _ services: ServerServices) {
        let checksum = RouteDescription.Parameter(
            "checksum", .object([("type", .string("string")), ("pattern", .string("^[0-9a-f]{32}$"))]),
            "the audio's XXH3-128, as voice memos have it", required: true)
        router.route(.get, "/api/v1/sync/blobs/{checksum}/received", RouteDescription(
            "How much of the audio the hub holds: whole, or the bytes of an upload so far", path: [checksum],
            answers: [Describe.json(200, "its state", blobState), notAChecksum])) { request in
            let sum = try blobChecksum(request)
            return try services.read { workspace in
                let store = try workspace.voiceStore()
                let whole = try store.audioPath(checksum: sum)
                return .json(.object([("whole", .bool(whole != nil)),
                                      ("received", .int(whole.flatMap(FileSystem.size(of:)) ?? store.receivedBytes(checksum: sum)))]))
            }
        }
        router.route(.get, "/api/v1/sync/blobs/{checksum}", RouteDescription(
            "The audio, whole or by Range", path: [checksum],
            answers: [.init(200, "the bytes", mediaType: "application/octet-stream"),
                      .init(206, "the range asked for", mediaType: "application/octet-stream"),
                      Describe.json(404, "not here whole, or not a checksum", DocumentSchema.ref("Error"))])) { request in
            let sum = try blobChecksum(request)
            guard let path = try services.read({ try $0.voiceStore().audioPath(checksum: sum) }) else {
                throw MemoError(.notFound, en: "the audio \(sum) is not here", ko: "오디오 \(sum)이(가) 없습니다")
            }
            return Response.file(try OpenFile(path: path), contentType: "application/octet-stream", for: request)
        }
        router.upload(.put, "/api/v1/sync/blobs/{checksum}", bodyLimit: services.maximumUpload, RouteDescription(
            "Send the audio, or its next piece (Content-Range: bytes START-END/TOTAL, START the bytes received)",
            path: [checksum],
            headers: [.init("Content-Range", DocumentSchema.string, "which bytes of how many; absent: all, from the start")],
            body: RouteDescription.Body("application/octet-stream", .object([("type", .string("string")),
                                                                             ("format", .string("binary"))])),
            answers: [Describe.json(201, "whole and checked", blobState),
                      Describe.json(200, "received so far (the rest goes on from there)", blobState),
                      Describe.json(409, "START is not the bytes received: the message says how many are",
                                    DocumentSchema.ref("Error")),
                      Describe.json(422, "the bytes are not the checksum's (sent again whole), or a bad range",
                                    DocumentSchema.ref("Error")), notAChecksum])) { request in
            try SyncBlobUpload(services: services, request: request, checksum: try blobChecksum(request))
        }
    }

    static let notAChecksum = Describe.json(404, "not a checksum: no audio has that name", DocumentSchema.ref("Error"))

    static let blobState = DocumentSchema.object([("whole", DocumentSchema.boolean), ("received", DocumentSchema.integer)])

    static func blobChecksum(_ request: Request) throws -> String {
        let text = request.parameters["checksum"] ?? ""
        guard VoiceStore.isChecksum(text) else {
            throw MemoError(.notFound, en: "an audio's checksum is 32 lowercase hex digits",
                            ko: "오디오 checksum은 소문자 16진수 32자리입니다")
        }
        return text
    }
}

/// One `PUT` of a blob: the bytes appended to the blob's part as they come
/// off the socket, kept when the connection is cut (the next `PUT` goes on
/// from them), checked against the checksum when the last byte arrives.
final class SyncBlobUpload: RequestBodyReceiver {
    private let store: VoiceStore
    private let checksum: String
    private let total: Int64
    private var writer: SyncBlobWriter?
    private var position: Int64

    init(services: ServerServices, request: Request, checksum: String) throws {
        // A home that is a device syncs with another hub: it takes no audio as one.
        try services.read { workspace in try SyncHub(workspace).check(epoch: nil) }
        store = try MemoRoutes.dedicatedWorkspace(services).voiceStore()
        self.checksum = checksum
        // A piece says how long it is: a body sent chunked could not be
        // told from the rest of the audio.
        guard let declared = request.declaredBodyLength, declared <= UInt64(Int64.max) else {
            throw MemoError(.badInput, en: "audio is sent with its Content-Length", ko: "오디오는 Content-Length와 함께 보냅니다")
        }
        let length = Int64(declared)
        let (start, total) = try SyncBlobUpload.range(request.headers["Content-Range"], length: length)
        guard total <= Int64(services.maximumUpload) else {
            throw MemoError(.tooLarge, en: "audio is at most \(services.maximumUpload) bytes",
                            ko: "오디오는 최대 \(services.maximumUpload)바이트입니다")
        }
        self.total = total
        position = start
        // Whole here already (another device sent it): the body is not needed.
        if try store.audioPath(checksum: checksum) == nil {
            writer = try store.blobWriter(checksum: checksum, offset: start)
        }
    }

    /// `bytes START-END/TOTAL` (`bytes */TOTAL` with an empty body: no
    /// bytes, only the check of what arrived), or, absent, the whole body
    /// (which is not empty: no audio is).
    static func range(_ header: String?, length: Int64) throws -> (start: Int64, total: Int64) {
        guard let header else {
            guard length > 0 else { throw MemoError(.badInput, en: "no audio is empty", ko: "빈 오디오는 없습니다") }
            return (0, length)
        }
        let refusal = MemoError(.badInput, en: "Content-Range is 'bytes START-END/TOTAL' matching the body's length",
                                ko: "Content-Range는 본문 길이에 맞는 'bytes START-END/TOTAL' 형식입니다")
        guard header.hasPrefix("bytes "), let slash = header.lastIndex(of: "/") else { throw refusal }
        let span = header[header.index(header.startIndex, offsetBy: 6)..<slash]
        guard let total = Int64(header[header.index(after: slash)...]), total > 0 else { throw refusal }
        if span == "*" {
            guard length == 0 else { throw refusal }
            return (total, total)
        }
        let ends = span.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = Int64(ends[0]), let end = Int64(ends[1]), start >= 0, start <= end,
              end < total, end - start + 1 == length else { throw refusal }
        return (start, total)
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        position += Int64(chunk.count)
        try writer?.write(chunk)
    }

    func finish() throws -> Response {
        writer?.close()
        let isNew = writer != nil
        writer = nil
        if isNew, position == total { try store.finishBlob(checksum: checksum) }
        let whole = try store.audioPath(checksum: checksum) != nil
        let received = whole ? total : store.receivedBytes(checksum: checksum)
        return .json(.object([("whole", .bool(whole)), ("received", .int(received))]), status: whole && isNew ? 201 : 200)
    }

    func abandon(_ reason: BodyFailure) {
        // What arrived stays: the next PUT goes on from it.
        writer?.close()
        writer = nil
    }
}
