import HTTPServer
import MemoCore
import MemoKit

/// `Idempotency-Key` on a POST (every POST but signing in: the routes that
/// take a JSON body call `perform` themselves, the uploads with the digest
/// of what they streamed, and every bodiless action is registered through
/// `Router.action`): the first request with a key is done and its
/// answer kept; a retry with the same key and the same body gets that answer
/// again without doing anything; the same key with another body is refused
/// (422); the same key while the first is still running is refused (409).
///
/// Kept in memory for the server's life, per credential, at most `capacity`
/// answers (the oldest forgotten first): a retry comes within seconds. Bodies
/// are compared by a digest, never kept (an import's is hundreds of
/// megabytes, which the server streams to disk and never holds): their
/// SHA-256, or a voice upload's XXH3-128 (see `VoiceUpload`); one target
/// always uses the same.
final class IdempotencyCache: @unchecked Sendable {
    let capacity = 1024

    private enum Entry {
        case running(bodyDigest: [UInt8])
        case done(bodyDigest: [UInt8], response: Response)
    }

    private let mutex = Monitor()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// Runs `work` once per key: see the type's description.
    func perform(_ request: Request, body: [UInt8], _ work: () throws -> Response) throws -> Response {
        guard request.headers["Idempotency-Key"] != nil else { return try work() }
        return try perform(request, bodyDigest: try SHA256Digest.of(body), work)
    }

    /// `perform` for a body streamed elsewhere, known by its digest.
    func perform(_ request: Request, bodyDigest body: [UInt8], _ work: () throws -> Response) throws -> Response {
        guard let key = request.headers["Idempotency-Key"] else { return try work() }
        guard (1...255).contains(key.utf8.count) else {
            // An HTTPError, not a `usage` MemoError: a header's fault is the
            // request's (400), never taken for the body's (see `Router.json`).
            throw HTTPError(status: 400, en: "an Idempotency-Key is 1 to 255 characters", ko: "Idempotency-Key는 1~255자입니다")
        }
        // Per credential and route: one client's key never answers another's
        // request. The credential is its identity (the stored digest of the
        // token or session), not the header's text: `bearer` and `Bearer`,
        // or an extra space, are the same client retrying.
        let scope = (Access.credentialIdentity(request) ?? "") + "\n" + request.target + "\n" + key
        let cached = try mutex.locked { () throws -> Response? in
            switch entries[scope] {
            case .running(let first)?:
                throw first == body ? MemoError(.invalidState, en: "a request with this Idempotency-Key is still running",
                                                ko: "이 Idempotency-Key의 요청이 아직 처리 중입니다")
                                    : reused()
            case .done(let first, let response)?:
                guard first == body else { throw reused() }
                return response
            case nil:
                entries[scope] = .running(bodyDigest: body)
                order.append(scope)
                return nil
            }
        }
        if let cached { return cached }
        do {
            var response = try work()
            // The router's `around` adds `Undo-Step` after the route; a
            // replay runs no route, so the kept answer carries it already
            // (a client undoes its change by it, whichever answer it got).
            if let step = RequestReads.current?.undoStep { response.headers.set("Undo-Step", String(step)) }
            mutex.locked {
                entries[scope] = .done(bodyDigest: body, response: response)
                trim()
            }
            return response
        } catch {
            // A failure is not an answer to keep: the client may retry it.
            mutex.locked {
                entries[scope] = nil
                order.removeAll { $0 == scope }
            }
            throw error
        }
    }

    private func reused() -> MemoError {
        MemoError(.badInput, en: "this Idempotency-Key was used with another body", ko: "이 Idempotency-Key는 다른 본문에 쓰였습니다")
    }

    private func trim() {
        while order.count > capacity {
            let oldest = order.removeFirst()
            if case .done? = entries[oldest] { entries[oldest] = nil } else { order.append(oldest); break }
        }
    }
}

extension Router {
    /// A bodiless `POST` (an action: `/todos/{id}/done`, `/timers/{id}/lap`,
    /// `/undo`, …) that honours `Idempotency-Key` as the routes with a body
    /// do: a retried lap must not record a second lap. Every such route is
    /// added through here rather than `route(.post, …)`, so none forgets it.
    mutating func action(_ pattern: String, _ services: ServerServices, _ documentation: RouteDescription? = nil,
                         _ handler: @escaping Handler) {
        route(.post, pattern, documentation) { request in
            try services.idempotency.perform(request, body: []) { try handler(request) }
        }
    }
}
