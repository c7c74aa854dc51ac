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
        let body = Array(document.serialized.utf8)
        let tag = etag(of: body)
        if status == 200, request.method == .get || request.method == .head,
           let wanted = request.headers["If-None-Match"], matches(wanted, tag) {
            return Response(status: 304, headers: ["ETag": tag])
        }
        var response = Response.bytes(body, status: status, contentType: "application/json")
        response.headers.set("ETag", tag)
        return response
    }

    /// Throws a 412 carrying `current` when the request's `If-Match` names
    /// another version; nothing when it has none or names this one.
    static func checkPrecondition(_ request: Request, current: JSON) throws {
        guard let wanted = request.headers["If-Match"] else { return }
        let body = Array(current.serialized.utf8)
        let tag = etag(of: body)
        guard !matches(wanted, tag) else { return }
        var response = Response.bytes(body, status: 412, contentType: "application/json")
        response.headers.set("ETag", tag)
        throw StaleItem(response: response)
    }

    /// A strong tag: 64-bit FNV-1a of the document, quoted. Not a secret,
    /// only a change detector (anyone who may read the item may see it).
    static func etag(of body: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether a list of tags (`If-Match`, `If-None-Match`) names `tag`;
    /// `*` names any. Weak tags compare by their opaque part (RFC 9110 13.1.2).
    static func matches(_ list: String, _ tag: String) -> Bool {
        for part in list.split(separator: ",") {
            var candidate = part.trimmingCharacters(in: " \t")
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }
}

/// A change refused because the client's copy is stale: answered as it is.
struct StaleItem: Error {
    let response: Response
}
