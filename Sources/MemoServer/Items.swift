import HTTPServer
import MemoCore

/// Item responses with their validators. An item's `ETag` is its revision
/// (`rev`, one counter of the data home bumped by every change of it), not
/// a digest of its document: a to-do's document holds the time spent on it
/// and whether it is overdue, which a running timer and the clock change
/// every moment without any change to the to-do, and a digest then made
/// every `If-Match` fail. `If-None-Match` answers 304, and a stale
/// `If-Match` on a change answers 412 with the current item.
///
/// Documents that are not items (the onboarding state) keep a digest of
/// their bytes.
enum Items {
    /// 200 (or `status`) with `document` and its ETag (its `rev` member, or
    /// a digest when it has none); 304 when the request's `If-None-Match`
    /// names that tag.
    static func response(_ document: JSON, for request: Request, status: Int = 200) -> Response {
        let body = document.serializedBytes
        return response(serialized: body, tag: revision(of: document).map(EntityTag.revision) ?? EntityTag.of(body),
                        for: request, status: status)
    }

    /// `response` for an item's document already serialized, with its revision.
    static func response(serialized body: [UInt8], rev: Int64, for request: Request, status: Int = 200) -> Response {
        response(serialized: body, tag: EntityTag.revision(rev), for: request, status: status)
    }

    /// Throws a 412 carrying `current` when the request's `If-Match` names
    /// another version; nothing when it has none or names this one.
    static func checkPrecondition(_ request: Request, current: JSON) throws {
        guard let rev = revision(of: current) else {
            preconditionFailure("an If-Match is checked against an item, which has a revision")
        }
        try checkPrecondition(request, rev: rev, currentSerialized: current.serializedBytes)
    }

    /// `checkPrecondition` for an item of revision `rev`, whose document is
    /// made only when the answer is 412.
    static func checkPrecondition(_ request: Request, rev: Int64,
                                  currentSerialized body: @autoclosure () throws -> [UInt8]) throws {
        guard let wanted = request.headers["If-Match"] else { return }
        let tag = EntityTag.revision(rev)
        guard !EntityTag.list(wanted, names: tag) else { return }
        var response = Response.bytes(try body(), status: 412, contentType: "application/json")
        response.headers.set("ETag", tag)
        throw StaleItem(response: response)
    }

    // MARK: - Private

    private static func response(serialized body: [UInt8], tag: String, for request: Request, status: Int) -> Response {
        if status == 200, request.method == .get || request.method == .head,
           let wanted = request.headers["If-None-Match"], EntityTag.list(wanted, names: tag) {
            return Response(status: 304, headers: ["ETag": tag])
        }
        var response = Response.bytes(body, status: status, contentType: "application/json")
        response.headers.set("ETag", tag)
        return response
    }

    /// An item document's `rev` member.
    private static func revision(of document: JSON) -> Int64? {
        guard case let .object(members) = document else { return nil }
        for (key, value) in members where key == "rev" {
            if case let .int(rev) = value { return rev }
        }
        return nil
    }
}

/// A change refused because the client's copy is stale: answered as it is.
struct StaleItem: Error {
    let response: Response
}
