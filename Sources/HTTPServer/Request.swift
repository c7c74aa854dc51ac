/// One HTTP request as a handler sees it, once its head has arrived and
/// passed the server's checks. The body is not here: it streams to the
/// route's `RequestBodyReceiver` as it comes off the socket.
public struct Request: Sendable {
    public struct QueryItem: Sendable, Equatable {
        public let name: String
        /// Empty when the item had no `=`.
        public let value: String
    }

    public let method: Method
    /// The request target exactly as the client sent it: path and query,
    /// escapes undecoded (for logs and redirects; never parse it again).
    public let target: String
    /// The path's segments, percent-decoded and checked (see `RequestTarget`):
    /// `/api/v1/todos/7` is `["api", "v1", "todos", "7"]`.
    public let path: [String]
    /// The query's items in order, decoded; a repeated name keeps every value.
    public let query: [QueryItem]
    public let headers: Headers
    /// The client's address and port, e.g. `127.0.0.1:53122` or `[::1]:53122`.
    public let remoteAddress: String
    /// The client's IP address without the port (`127.0.0.1`, `[::1]`).
    public var remoteHost: String {
        remoteAddress.lastIndex(of: ":").map { String(remoteAddress[..<$0]) } ?? remoteAddress
    }
    /// `HTTP/1.1` or `HTTP/1.0`.
    public let httpVersion: String
    /// The authority of an absolute-form target (`http://127.0.0.1:8765/…`),
    /// nil for the usual origin-form (`/…`).
    public let targetAuthority: String?
    /// The pattern of the route that matched, e.g. `/api/v1/todos/{id}`; nil
    /// when none did (the `beforeEach` hook still sees such requests).
    public internal(set) var routePattern: String?
    /// The values of the pattern's `{name}` segments.
    public internal(set) var parameters: [String: String] = [:]
    /// The route that matched, with what it declares of itself
    /// (`Route.documentation`); nil when none did.
    public internal(set) var route: Route?

    public init(method: Method, target: String, path: [String], query: [QueryItem] = [], headers: Headers = [:],
                remoteAddress: String = "", httpVersion: String = "HTTP/1.1", targetAuthority: String? = nil) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.httpVersion = httpVersion
        self.targetAuthority = targetAuthority
    }

    /// The host and port the client means to reach: an absolute-form
    /// target's authority, else its `Host` field (RFC 9112 section 3.2.2:
    /// the target wins, the field is ignored). A check of the host must
    /// read this, never the field alone.
    public var host: String? {
        targetAuthority ?? headers["Host"]
    }

    /// The first value of the query item `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Every value of the query item `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }

    /// The body's length as the head declares it: its Content-Length, unless
    /// the body is chunked (then the length is known only at its end, and a
    /// Content-Length beside it is refused). libmicrohttpd delivers
    /// exactly this many bytes or reports the body cut off.
    public var declaredBodyLength: UInt64? {
        headers.contains("Transfer-Encoding") ? nil : ServerCore.contentLength(headers)
    }
}
