import HTTPServer
import MemoCore
import Notes

/// Keyset paging for lists: `limit` items, and when there may be more, a
/// `Link: <…>; rel="next"` whose opaque `cursor` holds the last item's sort
/// values, so the next page starts right after it however many items were
/// added or removed meanwhile (an offset would skip or repeat some).
enum Paging {
    /// The to-do position a `cursor` holds, for a list in `sort` order.
    static func todoPosition(_ request: Request, sort: TodoQuery.Sort) throws -> TodoPosition? {
        guard let fields = try fields(request, kind: "t", count: 4) else { return nil }
        guard fields[0] == sort.rawValue, let id = Int64(fields[3]), id >= 1,
              let due = optionalDouble(fields[1]), let priority = optionalInt(fields[2]) else { throw badCursor }
        return TodoPosition(dueAt: due.value, priority: priority.value, id: id)
    }

    static func todoCursor(_ todo: Todo, sort: TodoQuery.Sort) -> String {
        let position = TodoPosition(todo)
        return encode(["t", sort.rawValue, position.dueAt.map { "\($0)" } ?? "", position.priority.map { "\($0)" } ?? "",
                       "\(position.id)"])
    }

    static func memoPosition(_ request: Request) throws -> MemoPosition? {
        guard let fields = try fields(request, kind: "m", count: 3) else { return nil }
        guard let created = Double(fields[1]), created.isFinite, let id = Int64(fields[2]), id >= 1,
              fields[0] == "0" || fields[0] == "1" else { throw badCursor }
        return MemoPosition(isPinned: fields[0] == "1", createdAt: created, id: id)
    }

    static func memoCursor(_ summary: MemoSummary) -> String {
        let position = MemoPosition(summary)
        return encode(["m", position.isPinned ? "1" : "0", "\(position.createdAt)", "\(position.id)"])
    }

    /// The voice memo id a `cursor` holds (the list is in id order).
    static func voiceAfter(_ request: Request) throws -> Int64? {
        guard let fields = try fields(request, kind: "v", count: 1) else { return nil }
        guard let id = Int64(fields[0]), id >= 1 else { throw badCursor }
        return id
    }

    static func voiceCursor(_ id: Int64) -> String {
        encode(["v", "\(id)"])
    }

    /// `response` with the `Link` to the page after `cursor` (none when the
    /// page was not full: nothing follows).
    static func linking(_ response: Response, _ request: Request, itemCount: Int, limit: Int, cursor: () -> String?) -> Response {
        guard itemCount == limit, let cursor = cursor() else { return response }
        // `<path?query-with-this-cursor>; rel="next"`, written as bytes into
        // one buffer: made of arrays of pieces joined, it was a fortieth of a
        // list's time under perf.
        var link: [UInt8] = [UInt8(ascii: "<")]
        link.reserveCapacity(128 + request.target.utf8.count + cursor.utf8.count)
        if request.path.isEmpty { link.append(UInt8(ascii: "/")) }
        for segment in request.path {
            link.append(UInt8(ascii: "/"))
            appendPercentEncoded(segment, to: &link)
        }
        var separator = UInt8(ascii: "?")
        func appendItem(_ name: String, _ value: String) {
            link.append(separator)
            separator = UInt8(ascii: "&")
            appendPercentEncoded(name, to: &link)
            link.append(UInt8(ascii: "="))
            appendPercentEncoded(value, to: &link)
        }
        for item in request.query where item.name != "cursor" { appendItem(item.name, item.value) }
        appendItem("cursor", cursor)
        link.append(contentsOf: ">; rel=\"next\"".utf8)
        var linked = response
        linked.headers.add("Link", String(decoding: link, as: UTF8.self))
        return linked
    }

    // MARK: - Private

    private static func fields(_ request: Request, kind: String, count: Int) throws -> [String]? {
        guard let cursor = request.queryValue("cursor") else { return nil }
        guard cursor.utf8.count <= 400, let text = decode(cursor) else { throw badCursor }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == count + 1, fields[0] == kind else { throw badCursor }
        return Array(fields.dropFirst())
    }

    private static func optionalDouble(_ text: String) -> (value: Double?, Void)? {
        if text.isEmpty { return (nil, ()) }
        guard let value = Double(text), value.isFinite else { return nil }
        return (value, ())
    }

    private static func optionalInt(_ text: String) -> (value: Int?, Void)? {
        if text.isEmpty { return (nil, ()) }
        guard let value = Int(text), (-1000...1000).contains(value) else { return nil }
        return (value, ())
    }

    private static let badCursor = MemoError(.usage, en: "the cursor is not one this list gave; start again without it",
                                             ko: "이 목록이 준 cursor가 아닙니다. cursor 없이 다시 시작하세요")

    /// Fields joined and base64url-encoded: opaque to clients, safe in a URL.
    /// Made over the ASCII bytes (every list answer with a next page makes
    /// one: character by character, a String's replacements showed in perf).
    private static func encode(_ fields: [String]) -> String {
        var url: [UInt8] = []
        for byte in Base64.encode(Array(fields.joined(separator: ":").utf8)).utf8 {
            switch byte {
            case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: url.append(byte)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    private static func decode(_ cursor: String) -> String? {
        var text = cursor.replacingAll("-", with: "+").replacingAll("_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return Base64.decode(text).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// RFC 3986 unreserved characters as they are, everything else as %XX.
    static func percentEncoded(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendPercentEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `percentEncoded(text)`'s bytes, appended to `out`.
    static func appendPercentEncoded(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            let isUnreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if isUnreserved {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
