/// The checks of a request head's framing fields that libmicrohttpd 0.9.75
/// leaves undone, made on the fields it parsed (every value of every field,
/// duplicates included) before any hook or route sees the request.
///
/// Where the body ends must be beyond doubt: a server that reads one
/// length while a proxy in front of it read another answers the leftover
/// bytes as a request of their own (request smuggling). So a head whose
/// framing could be read two ways is refused, and its connection closed
/// with the answer (libmicrohttpd closes it when a body was announced and
/// not read).
enum RequestHeadChecks {
    /// Fails with the status the head deserves: 400 for fields that
    /// contradict each other (two different `Content-Length`s, a
    /// `Content-Length` beside `Transfer-Encoding`, two `Host`s), 501 for a
    /// transfer coding other than chunked, 417 for an expectation other
    /// than `100-continue`.
    static func check(_ headers: Headers) throws(HTTPError) {
        try checkContentLength(headers)
        if headers.values(for: "Host").count > 1 {
            throw badRequest(en: "the request has more than one Host field", ko: "요청에 Host 필드가 둘 이상 있습니다")
        }
        try checkTransferEncoding(headers)
        try checkExpectation(headers)
    }

    /// Every `Content-Length` value (a field repeated, or a list in one
    /// field) must be the same decimal number: RFC 9112
    /// section 6.3 makes anything else unrecoverable.
    private static func checkContentLength(_ headers: Headers) throws(HTTPError) {
        let values = headers.values(for: "Content-Length")
        guard !values.isEmpty else { return }
        if headers.contains("Transfer-Encoding") {
            // RFC 9112 section 6.1 lets a server refuse this; the two
            // disagreeing is exactly what smuggling relies on.
            throw badRequest(en: "the request has both Content-Length and Transfer-Encoding",
                             ko: "요청에 Content-Length와 Transfer-Encoding이 함께 있습니다")
        }
        let lengths = Set(values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0).trimmingASCIISpaces })
        guard lengths.count == 1, let length = lengths.first, !length.isEmpty,
              length.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw badRequest(en: "the request's Content-Length fields disagree or are not a number",
                             ko: "요청의 Content-Length 필드가 서로 다르거나 숫자가 아닙니다")
        }
    }

    /// libmicrohttpd decodes only `chunked`; any other coding would leave
    /// it waiting for a body it cannot find the end of (until the time-out).
    private static func checkTransferEncoding(_ headers: Headers) throws(HTTPError) {
        let values = headers.values(for: "Transfer-Encoding")
        guard !values.isEmpty else { return }
        let codings = values.flatMap { $0.split(separator: ",") }.map { String($0).trimmingASCIISpaces.lowercased() }
        guard codings == ["chunked"] else {
            throw HTTPError(status: 501, en: "Transfer-Encoding other than chunked is not supported",
                            ko: "chunked 이외의 Transfer-Encoding은 지원하지 않습니다")
        }
    }

    /// RFC 9110 section 10.1.1: an expectation the server cannot meet is 417,
    /// not ignored (the client may be waiting for it before sending its body).
    private static func checkExpectation(_ headers: Headers) throws(HTTPError) {
        for value in headers.values(for: "Expect")
        where value.trimmingASCIISpaces.lowercased() != "100-continue" {
            throw HTTPError(status: 417, en: "Expectation failed: only 'Expect: 100-continue' is supported",
                            ko: "기대를 충족할 수 없습니다: 'Expect: 100-continue'만 지원합니다")
        }
    }

    private static func badRequest(en: String, ko: String) -> HTTPError {
        HTTPError(status: 400, en: "Bad request: " + en, ko: "잘못된 요청: " + ko)
    }
}
