/// What a `Range` header asks of a representation `length` bytes long
/// (RFC 9110 section 14): all of it, one part, or nothing it can have.
public enum RangeSelection: Sendable, Equatable {
    /// No usable range: answer 200 with the whole body. A missing header, a
    /// unit other than `bytes`, a malformed or multi-part set of ranges all
    /// land here; RFC 9110 lets a server ignore a Range it does not serve.
    case whole
    /// Answer 206 with these bytes (first and last, inclusive).
    case part(ClosedRange<UInt64>)
    /// Answer 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Reads `header` (the request's `Range` value) against `length`.
    /// Only one range is served; `bytes=a-b`, `bytes=a-` and `bytes=-n`
    /// (the last n bytes) are understood, with a last position past the end
    /// clipped to it.
    public static func select(rangeHeader header: String?, length: UInt64) -> RangeSelection {
        guard let header else { return .whole }
        let trimmed = header.drop { $0 == " " || $0 == "\t" }
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "bytes=" else { return .whole }
        let spec = trimmed.dropFirst(6).filter { $0 != " " && $0 != "\t" }
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .part((length - min(suffix, length))...(length - 1))
        }
        guard let first = number(firstText) else { return .whole }
        let last: UInt64
        if lastText.isEmpty {
            last = UInt64.max
        } else {
            guard let given = number(lastText), given >= first else { return .whole }
            last = given
        }
        guard first < length else { return .unsatisfiable }
        return .part(first...min(last, length - 1))
    }

    /// Decimal digits as a number, saturating at UInt64.max (a position past
    /// any file); nil when there are none or anything else is there.
    private static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var value: UInt64 = 0
        for digit in text.utf8 {
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflowA || overflowB { return UInt64.max }
            value = sum
        }
        return value
    }
}

extension Response {
    /// `file` for a GET or HEAD, honouring the request's `Range`: 200 with
    /// the whole file, 206 with one part and its `Content-Range`, or 416;
    /// `Accept-Ranges: bytes` on all three. A request carrying `If-Range`
    /// gets the whole file, since these responses have no validator to
    /// compare it with.
    public static func file(_ file: OpenFile, contentType: String, for request: Request) -> Response {
        var headers: Headers = ["Content-Type": contentType, "Accept-Ranges": "bytes"]
        let rangeHeader = request.headers.contains("If-Range") ? nil : request.headers["Range"]
        switch RangeSelection.select(rangeHeader: rangeHeader, length: file.size) {
        case .whole:
            return Response(status: 200, headers: headers, body: .file(file.wholeFile))
        case .part(let range):
            headers.set("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)")
            return Response(status: 206, headers: headers, body: .file(file.region(range)))
        case .unsatisfiable:
            headers.set("Content-Range", "bytes */\(file.size)")
            headers.set("Content-Type", "text/plain; charset=utf-8")
            return Response(status: 416, headers: headers, body: .bytes(Array("Range not satisfiable\n".utf8)))
        }
    }
}
