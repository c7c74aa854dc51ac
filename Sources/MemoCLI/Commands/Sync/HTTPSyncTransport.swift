import HTTPClient
import MemoCore
import MemoKit
import VoiceMemos

/// A device's way to its hub over HTTP(S): the routes of docs/sync.md
/// with the device's token, each answer's refusal turned back into the
/// error the hub meant (its code in the error envelope).
struct HTTPSyncTransport: SyncTransport {
    let server: String
    let token: String
    var client = HTTPClient()
    /// The bytes every exchange put on the wire, for `--json`.
    let traffic = Traffic()

    final class Traffic: @unchecked Sendable {
        var sent = 0
        var received = 0
    }

    init(server: String, token: String, certificateAuthorities: String?) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.token = token
        client.certificateAuthorities = certificateAuthorities
    }

    func pull(after cursor: Int64, epoch: String?, limit: Int, counting: Bool) throws -> JSONReader {
        var url = server + "/api/v1/sync/changes?after=\(cursor)&limit=\(limit)"
        if let epoch { url += "&epoch=" + epoch }
        if counting { url += "&count=true" }
        return try answer(client.send("GET", url, headers: headers))
    }

    func push(_ document: JSON) throws -> JSONReader {
        try answer(client.send("POST", server + "/api/v1/sync/changes",
                               headers: headers + ["Content-Type: application/json"], body: document.serializedBytes))
    }

    func blobReceived(_ checksum: String) throws -> Int64? {
        let state = try answer(client.send("GET", blobURL(checksum) + "/received", headers: headers))
        return try state.bool("whole") ? nil : state.int("received")
    }

    func uploadBlob(_ checksum: String, path: String, offset: Int64, size: Int64) throws {
        let range = size > offset ? "Content-Range: bytes \(offset)-\(size - 1)/\(size)" : "Content-Range: bytes */\(size)"
        let answer = try client.upload(blobURL(checksum), headers: headers + ["Content-Type: application/octet-stream", range],
                                       path: path, offset: offset, length: size - offset)
        _ = try self.answer(answer, accepting: [200, 201])
    }

    func downloadBlob(_ checksum: String, offset: Int64, write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        let answer = try client.download(blobURL(checksum), headers: headers + (offset > 0 ? ["Range: bytes=\(offset)-"] : []),
                                         write: write)
        // A hub that ignored the range would have sent the whole from the
        // start: appended, it fails the blob's check, which starts over.
        _ = try self.answer(answer, accepting: [200, 206], parsing: false)
    }

    private func blobURL(_ checksum: String) -> String { server + "/api/v1/sync/blobs/" + checksum }

    private var headers: [String] { ["Authorization: Bearer " + token, "Accept: application/json"] }

    private func count(_ answer: HTTPClient.Answer) {
        traffic.sent += answer.bytesSent
        traffic.received += answer.bytesReceived
    }

    @discardableResult
    private func answer(_ answer: HTTPClient.Answer, accepting accepted: Set<Int> = [200],
                        parsing: Bool = true) throws -> JSONReader {
        count(answer)
        if accepted.contains(answer.status) {
            return parsing ? try JSONReader(parsing: answer.body, source: server) : JSONReader(.null)
        }
        let envelope = try? JSONReader(parsing: answer.body).required("error")
        let code = (try? envelope?.string("code")) ?? ""
        let message = (try? envelope?.string("message")) ?? "HTTP \(answer.status)"
        let said = "\(server) answered \(answer.status): \(message)"
        let saidKo = "\(server)의 응답 \(answer.status): \(message)"
        switch (answer.status, code) {
        case (401, _):
            throw MemoError(.unauthorized, en: "\(server) refused the token: \(message)", ko: "\(server)이(가) 토큰을 거부했습니다: \(message)")
        case (409, MemoError.Hint.syncEpochChanged.rawValue):
            throw MemoError(.invalidState, hint: .syncEpochChanged, en: said, ko: saidKo)
        case (409, MemoError.Hint.syncOutOfOrder.rawValue):
            throw MemoError(.invalidState, hint: .syncOutOfOrder, en: said, ko: saidKo)
        case (416, _):
            throw MemoError(.invalidState, hint: .blobOffset, en: said, ko: saidKo)
        case (403, _), (409, _):
            throw MemoError(.invalidState, en: said, ko: saidKo)
        case (413, _):
            throw MemoError(.tooLarge, en: said, ko: saidKo)
        case (400..<500, _):
            throw MemoError(.badInput, en: said, ko: saidKo)
        default:
            throw MemoError(.unavailable, en: said, ko: saidKo)
        }
    }
}
