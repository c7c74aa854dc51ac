/// What a handler answers: a status, header fields and a body. The server
/// adds `ServerConfiguration.defaultHeaders` (nosniff, no-store) for every
/// name the response does not set itself; libmicrohttpd adds `Date`,
/// `Content-Length` or chunked framing, and leaves the body out for HEAD.
public struct Response: Sendable {
    public enum Body: Sendable {
        case empty
        case bytes([UInt8])
        /// Part or all of an open file, sent by libmicrohttpd (with `sendfile`
        /// where it can) without reading it into memory.
        case file(FileRegion)
        /// Bytes made on demand by `producer`, called on a server thread each
        /// time the connection can take more; `length` when known in advance,
        /// else the body is sent chunked.
        case stream(length: UInt64?, producer: StreamProducer)
        /// A Server-Sent Events stream (`EventStream.response(for:)`).
        case events(EventSubscription)
    }

    public var status: Int
    public var headers: Headers
    public var body: Body

    public init(status: Int = 200, headers: Headers = [:], body: Body = .empty) {
        precondition((100...599).contains(status), "\(status) is not an HTTP status")
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `text` as UTF-8 with its content type.
    public static func text(_ text: String, status: Int = 200,
                            contentType: String = "text/plain; charset=utf-8") -> Response {
        bytes(Array(text.utf8), status: status, contentType: contentType)
    }

    /// `bytes` with their content type.
    public static func bytes(_ bytes: [UInt8], status: Int = 200, contentType: String) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .bytes(bytes))
    }

    /// A body made on demand; see `Body.stream`.
    public static func stream(status: Int = 200, contentType: String, length: UInt64? = nil,
                              producer: @escaping StreamProducer) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .stream(length: length, producer: producer))
    }
}

/// Fills the buffer it is given with the next bytes of a body and returns
/// how many it wrote; 0 ends the body. May block (it runs on a server thread
/// of its own connection's). A throw cuts the connection: the client sees an
/// incomplete body, never a complete-looking one.
public typealias StreamProducer = @Sendable (UnsafeMutableRawBufferPointer) throws -> Int
