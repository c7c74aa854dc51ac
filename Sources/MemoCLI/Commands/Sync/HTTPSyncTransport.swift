import HTTPClient
import MemoCore
import MemoKit

/// A device's way to its hub over HTTP(S): the two routes of docs/sync.md
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

    private var headers: [String] { ["Authorization: Bearer " + token, "Accept: application/json"] }

    private func answer(_ answer: HTTPClient.Answer) throws -> JSONReader {
        traffic.sent += answer.bytesSent
        traffic.received += answer.bytesReceived
        if answer.status == 200 { return try JSONReader(parsing: answer.body, source: server) }
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
