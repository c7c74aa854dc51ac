import MemoCore

/// The checks and decoding of a request target that happen before any
/// handler runs: a handler sees only paths that are safe to use as names.
///
/// libmicrohttpd splits the request line (its URI unescaping is switched
/// off, so the bytes arrive as sent); the query is split here, from the
/// target as sent (see `queryItems`). Percent escapes are decoded strictly
/// (RFC 3986 section 2.1), where libmicrohttpd's own decoder passes
/// malformed escapes through.
enum RequestTarget {
    /// The decoded segments of `rawPath` (the target without its query):
    /// `/` is `[]`, `/a/b/` is `["a", "b", ""]`. Fails with a 400 when the
    /// path is not absolute, has a byte outside visible ASCII, a malformed
    /// escape, a segment that is not UTF-8 or holds a control character
    /// (NUL among them) or a `/` of its own, or a `.` or `..` segment.
    static func pathSegments<Bytes: Collection>(_ rawPath: Bytes) throws(HTTPError) -> [String]
    where Bytes.Element == UInt8 {
        guard rawPath.first == UInt8(ascii: "/") else {
            throw badTarget(en: "the request target must be an absolute path", ko: "요청 대상은 절대 경로여야 합니다")
        }
        guard rawPath.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") }) else {
            throw badTarget(en: "the path has a character that must be percent-encoded",
                            ko: "경로에 퍼센트 인코딩해야 하는 문자가 있습니다")
        }
        if rawPath.count == 1 { return [] }
        var segments: [String] = []
        for raw in rawPath.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let segment: String
            if !raw.contains(UInt8(ascii: "%")) {
                // Visible ASCII with no escape (checked above) is its own
                // text, with no control character and no '/'. Every
                // request's path comes here, and decoding each segment
                // through a buffer of its own showed under perf.
                segment = String(decoding: raw, as: UTF8.self)
            } else {
                guard let decoded = decode(raw) else {
                    throw badTarget(en: "the path has a malformed percent-escape or is not UTF-8",
                                    ko: "경로에 잘못된 퍼센트 인코딩이 있거나 UTF-8이 아닙니다")
                }
                guard !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "/" }) else {
                    throw badTarget(en: "a path segment holds a control character or an encoded '/'",
                                    ko: "경로 조각에 제어 문자나 인코딩된 '/'가 있습니다")
                }
                segment = decoded
            }
            guard segment != ".", segment != ".." else {
                throw badTarget(en: "the path has a '.' or '..' segment", ko: "경로에 '.' 또는 '..' 조각이 있습니다")
            }
            segments.append(segment)
        }
        return segments
    }

    /// An absolute-form target (`http://host:port/path`, RFC 9112 section
    /// 3.2.2: what a client that thinks it talks to a proxy sends) split into
    /// its authority and its path (`/` when it has none); nil for a target of
    /// any other form. The authority takes the `Host` field's place (the
    /// RFC has the server ignore that field then), so it is checked as
    /// strictly: a 400 when it is empty, holds userinfo (`user@`, which an
    /// http URI must not carry) or anything but visible ASCII.
    static func absoluteForm<Bytes: Collection>(_ raw: Bytes) throws(HTTPError) -> (authority: String, path: [UInt8])?
    where Bytes.Element == UInt8 {
        let text = raw.prefix(8).map { $0 | 0x20 }  // ASCII letters lower-cased; "/" and ":" unchanged
        let schemeLength: Int
        if text.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else if text.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else {
            return nil
        }
        let rest = raw.dropFirst(schemeLength)
        let authority = rest.prefix { $0 != UInt8(ascii: "/") }
        guard !authority.isEmpty, authority.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "@") }) else {
            throw badTarget(en: "an absolute-form target needs a host without userinfo",
                            ko: "절대 형식 요청 대상에는 사용자 정보 없는 호스트가 있어야 합니다")
        }
        let path = Array(rest.dropFirst(authority.count))
        return (String(decoding: authority, as: UTF8.self), path.isEmpty ? [UInt8(ascii: "/")] : path)
    }

    /// The query items of `target` (the request target as sent), as
    /// libmicrohttpd would split them: after the first `?`, at each `&`
    /// (an empty last piece ignored), each at its first `=` (none: an empty
    /// value), `+` read as a space and percent escapes decoded. Split here
    /// rather than by libmicrohttpd, which stores each item in the
    /// connection's memory pool: 500 short items overflowed it, and 0.9.75
    /// then neither answered nor reported the request over (issue 29,
    /// finding 4), so `Callbacks.requestLineArrived` hides the query from it.
    /// Fails with a 414 past `limit` items, a 400 as `queryComponent` does.
    static func queryItems(ofTarget target: [UInt8], limit: Int) throws(HTTPError) -> [Request.QueryItem] {
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        var pieces = target[(mark + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        guard pieces.count <= limit else {
            throw HTTPError(status: 414, en: "URI too long: the query has \(pieces.count) items, at most \(limit) are read",
                            ko: "URI가 너무 깁니다: 쿼리 항목이 \(pieces.count)개이고, 최대 \(limit)개까지 읽습니다")
        }
        var items: [Request.QueryItem] = []
        items.reserveCapacity(pieces.count)
        for piece in pieces {
            let plain = piece.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
            let equals = plain.firstIndex(of: UInt8(ascii: "="))
            items.append(Request.QueryItem(name: try queryComponent(plain[..<(equals ?? plain.endIndex)]),
                                           value: try queryComponent(equals.map { plain[($0 + 1)...] } ?? [])))
        }
        return items
    }

    /// A query name or value: percent escapes decoded (`+` already read as
    /// a space, as forms encode it); fails with a 400 on a malformed escape,
    /// bytes that are not UTF-8, or a NUL.
    static func queryComponent<Bytes: Collection>(_ raw: Bytes) throws(HTTPError) -> String
    where Bytes.Element == UInt8 {
        guard let text = decode(raw), !text.utf8.contains(0) else {
            throw badTarget(en: "the query has a malformed percent-escape, a NUL or text that is not UTF-8",
                            ko: "쿼리에 잘못된 퍼센트 인코딩, NUL 또는 UTF-8이 아닌 글자가 있습니다")
        }
        return text
    }

    /// `raw` with every `%XX` decoded, or nil when an escape is malformed or
    /// the result is not UTF-8.
    static func decode<Bytes: Collection>(_ raw: Bytes) -> String? where Bytes.Element == UInt8 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            index = raw.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index != raw.endIndex, let high = hexValue(raw[index]) else { return nil }
            index = raw.index(after: index)
            guard index != raw.endIndex, let low = hexValue(raw[index]) else { return nil }
            index = raw.index(after: index)
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func badTarget(en: String, ko: String) -> HTTPError {
        HTTPError(status: 400, en: "Bad request: " + en, ko: "잘못된 요청: " + ko)
    }
}
