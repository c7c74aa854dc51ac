import CCurl
import MemoCore

/// An HTTP/1.1 and HTTPS client over libcurl (loaded on first use), for a
/// device talking to its hub: one request at a time, its body and its
/// answer held in memory (sync's documents are bounded), with time-outs, a
/// bound on the answer and no signals; or a stream handed over as it
/// arrives. http and https only. Knows nothing of memoapp's API.
public struct HTTPClient: Sendable {
    public struct Answer: Sendable {
        public let status: Int
        public let body: [UInt8]
        /// What crossed the wire for it: the request's head and body, the
        /// answer's head and body (as HTTP has them, before TCP and TLS).
        public let bytesSent: Int
        public let bytesReceived: Int
    }

    /// The longest a connection may take to open, and a whole request.
    public var connectTimeoutMilliseconds = 10_000
    public var timeoutMilliseconds = 120_000
    /// The most bytes an answer may have.
    public var maximumAnswer = 64 << 20
    /// A PEM file of certificate authorities to trust besides the system's
    /// (a home server's own certificate).
    public var certificateAuthorities: String?

    public init() {}

    /// Sends one request; throws `unavailable` when the server cannot be
    /// reached or the exchange fails part-way.
    public func send(_ method: String, _ url: String, headers: [String] = [], body: [UInt8]? = nil) throws -> Answer {
        let sink = AnswerSink(limit: maximumAnswer)
        return try perform(url, headers: headers, writing: answerWritten, into: sink) { curl, handle, set in
            set(CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
            // Every coding libcurl can decode is offered, and decoded before
            // the answer's bound is applied (so no small answer unpacks past
            // it); the bytes counted are those that crossed the wire.
            _ = "".withCString { memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_ACCEPT_ENCODING, $0) }
            let bytes = body ?? []
            return method.withCString { methodText in
                if method != "GET" { _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_CUSTOMREQUEST, methodText) }
                return bytes.withUnsafeBytes { raw in
                    if body != nil {
                        _ = memoapp_curl_setopt_offset(curl.setopt, handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(raw.count))
                        // A non-null pointer even for an empty body.
                        _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_POSTFIELDS,
                                                        raw.baseAddress ?? UnsafeRawPointer(methodText))
                    }
                    return curl.easyPerform(handle)
                }
            }
        } finished: { code, status, sent, received in
            guard code == CURLE_OK else {
                if sink.isOverLimit {
                    throw MemoError(.tooLarge, en: "the server's answer is larger than \(maximumAnswer) bytes",
                                    ko: "서버의 응답이 \(maximumAnswer)바이트보다 큽니다")
                }
                throw try Self.unreachable(url, code)
            }
            return Answer(status: status, body: sink.bytes, bytesSent: sent, bytesReceived: received)
        }
    }

    /// Sends a GET whose answer is a stream (Server-Sent Events) and hands
    /// each piece of it to `received` as it arrives, until `received`
    /// returns false, the server ends it, or nothing (not even a
    /// heartbeat) arrives for `idleSeconds`. Returns the status.
    public func stream(_ url: String, headers: [String] = [], idleSeconds: Int = 90,
                       received: @escaping ([UInt8]) -> Bool) throws -> Int {
        let sink = StreamSink(received)
        return try perform(url, headers: headers, writing: streamWritten, into: sink) { curl, handle, set in
            // A stream has no end to wait for: a silent one is dead.
            set(CURLOPT_LOW_SPEED_LIMIT, 1)
            set(CURLOPT_LOW_SPEED_TIME, idleSeconds)
            return curl.easyPerform(handle)
        } finished: { code, status, _, _ in
            if code != CURLE_OK, !sink.isStopped, status == 0 { throw try Self.unreachable(url, code) }
            return status
        }
    }

    // MARK: - Private

    typealias Setter = (CURLoption, Int) -> Void

    /// One request on a handle made and cleaned up here, with what every
    /// request sets (the URL, http and https only, the certificate
    /// authorities, no signals, the connect time-out, the headers, where
    /// the answer goes); `run` sets the rest and performs it, `finished`
    /// reads the outcome (status, bytes sent and received).
    func perform<Sink: AnyObject, Result>(
        _ url: String, headers: [String],
        writing callback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int,
        into sink: Sink,
        _ run: (LibCurl, UnsafeMutableRawPointer, Setter) throws -> CURLcode,
        finished: (CURLcode, Int, Int, Int) throws -> Result
    ) throws -> Result {
        let curl = try LibCurl.loaded()
        guard let handle = curl.easyInit() else {
            throw MemoError(.internalFailure, en: "libcurl could not make a request", ko: "libcurl이 요청을 만들 수 없습니다")
        }
        defer { curl.easyCleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl.slistFreeAll(list) }
        for header in headers { list = curl.slistAppend(list, header) }
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        let set: Setter = { option, value in _ = memoapp_curl_setopt_long(curl.setopt, handle, option, value) }
        let code = try url.withCString { urlText in
            try "http,https".withCString { protocols in
                try (certificateAuthorities ?? "").withCString { authorities in
                    _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_URL, urlText)
                    _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_PROTOCOLS_STR, protocols)
                    if certificateAuthorities != nil {
                        _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_CAINFO, authorities)
                    }
                    set(CURLOPT_NOSIGNAL, 1)
                    set(CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds)
                    _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_HTTPHEADER, list)
                    _ = memoapp_curl_setopt_write_function(curl.setopt, handle, callback)
                    _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_WRITEDATA, box.toOpaque())
                    return try run(curl, handle, set)
                }
            }
        }
        var status = 0, requestHead = 0, answerHead = 0
        var uploaded: curl_off_t = 0, downloaded: curl_off_t = 0
        _ = memoapp_curl_getinfo_long(curl.getinfo, handle, CURLINFO_RESPONSE_CODE, &status)
        _ = memoapp_curl_getinfo_long(curl.getinfo, handle, CURLINFO_REQUEST_SIZE, &requestHead)
        _ = memoapp_curl_getinfo_long(curl.getinfo, handle, CURLINFO_HEADER_SIZE, &answerHead)
        _ = memoapp_curl_getinfo_offset(curl.getinfo, handle, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        _ = memoapp_curl_getinfo_offset(curl.getinfo, handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        return try finished(code, status, requestHead + Int(uploaded), answerHead + Int(downloaded))
    }

    static func unreachable(_ url: String, _ code: CURLcode) throws -> MemoError {
        let curl = try LibCurl.loaded()
        let reason = curl.easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        return MemoError(.unavailable, en: "cannot reach \(url): \(reason)", ko: "\(url)에 연결할 수 없습니다: \(reason)")
    }
}

/// Where an answer's bytes gather while libcurl receives them.
final class AnswerSink {
    var bytes: [UInt8] = []
    let limit: Int
    var isOverLimit = false

    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback for `send`: appends to the `AnswerSink`;
/// returning less than given ends the transfer (an answer past the limit).
let answerWritten: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<AnswerSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard sink.bytes.count + length <= sink.limit else {
        sink.isOverLimit = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// A stream's receiver, and whether it asked to stop.
private final class StreamSink {
    let received: ([UInt8]) -> Bool
    var isStopped = false
    init(_ received: @escaping ([UInt8]) -> Bool) { self.received = received }
}

/// libcurl's write callback for `stream`.
private let streamWritten: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<StreamSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    guard sink.received(bytes) else {
        sink.isStopped = true
        return 0
    }
    return length
}
