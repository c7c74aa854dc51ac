import HTTPServer
import MemoCore

/// Item responses with their validators: every item has an `ETag` (a digest
/// of its document, so anything that shows changes it), `If-None-Match`
/// answers 304, and a stale `If-Match` on a change answers 412 with the
/// current item.
enum Items {
    /// 200 (or `status`) with `document` and its ETag; 304 when the request's
    /// `If-None-Match` names that tag.
    static func response(_ document: JSON, for request: Request, status: Int = 200) -> Response {
        response(serialized: document.serializedBytes, for: request, status: status)
    }

    /// `response` for a document already serialized (`JSON.serializedBytes`).
    static func response(serialized body: [UInt8], for request: Request, status: Int = 200) -> Response {
        let tag = EntityTag.of(body)
        if status == 200, request.method == .get || request.method == .head,
           let wanted = request.headers["If-None-Match"], EntityTag.list(wanted, names: tag) {
            return Response(status: 304, headers: ["ETag": tag])
        }
        var response = Response.bytes(body, status: status, contentType: "application/json")
        response.headers.set("ETag", tag)
        return response
    }

    /// Throws a 412 carrying `current` when the request's `If-Match` names
    /// another version; nothing when it has none or names this one.
    static func checkPrecondition(_ request: Request, current: JSON) throws {
        try checkPrecondition(request, currentSerialized: current.serializedBytes)
    }

    /// `checkPrecondition` for a document already serialized.
    static func checkPrecondition(_ request: Request, currentSerialized body: @autoclosure () throws -> [UInt8]) throws {
        guard let wanted = request.headers["If-Match"] else { return }
        let body = try body()
        let tag = EntityTag.of(body)
        guard !EntityTag.list(wanted, names: tag) else { return }
        var response = Response.bytes(body, status: 412, contentType: "application/json")
        response.headers.set("ETag", tag)
        throw StaleItem(response: response)
    }
}

/// A change refused because the client's copy is stale: answered as it is.
struct StaleItem: Error {
    let response: Response
}
