import MemoCore

/// How a server listens, how much it lets each client take, and where its
/// records go. Every limit is checked when the server starts.
public struct ServerConfiguration: Sendable {
    /// Where to listen; port 0 lets the system choose (see `Server.boundAddress`).
    public var address: ListenAddress = .loopback(port: 0)
    /// Threads that poll the sockets (epoll) and run handlers, 1 to 64. A
    /// handler that blocks (database work) holds up only the connections of
    /// its own thread.
    public var threadCount: Int = 4
    /// Threads that run route handlers, 1 to 256, apart from the polling
    /// threads (see `HandlerPool`): a handler's database or file work holds
    /// one of these, never a connection's polling thread.
    public var handlerThreadCount: Int = 4
    /// Handler threads one client's requests may hold at once, 1 to
    /// `handlerThreadCount`; nil for all but one (at least one), so that
    /// another client always finds a thread (see `HandlerPool`).
    public var handlerThreadsPerClient: Int?
    /// Handler threads the routes marked slow (`Route.isSlow`: uploads,
    /// exports, the like) may hold at once, all clients together, 1 to
    /// `handlerThreadCount`; nil for all but one (at least one), so that a
    /// quick request always finds a thread, however many clients are busy
    /// with slow ones (see `HandlerPool`).
    public var slowHandlerThreads: Int?
    /// Who sent a request, for the handler threads' shares: requests with
    /// the same answer are one client's. Nil takes the client's IP address;
    /// an app whose clients share an address (every local program comes
    /// from 127.0.0.1) tells them apart by their credentials.
    public var clientIdentity: (@Sendable (Request) -> String)?
    /// Seconds a connection may stay silent before libmicrohttpd closes it,
    /// 1 to 3600; slow clients that trickle a request are cut off by this.
    /// An event stream waiting for its next event is exempt.
    public var connectionTimeout: Int = 15
    /// Seconds a request body may take to arrive beyond what its length
    /// needs at `bodyMinimumRate`, 0.1 to 3600, from its head on: a body
    /// past it is cut (a trickle of a byte every few seconds is never
    /// silent long enough for the time-out above).
    public var bodyTimeAllowance: Double = 5
    /// Bytes per second a request body must average beyond
    /// `bodyTimeAllowance`, 1 to 1 GiB: its declared length (or, chunked,
    /// what has arrived) at this rate is the rest of its time.
    public var bodyMinimumRate: Int = 16 * 1024
    /// Connections open at once, 1 to 100,000 (each takes a descriptor).
    public var connectionLimit: Int = 1024
    /// Connections open at once from one IP address; nil for no limit.
    public var connectionsPerAddress: Int?
    /// Bytes of memory each connection may use for its request head and
    /// response buffers, 8 KiB to 16 MiB. libmicrohttpd zeroes all of it
    /// between one request and the next on a connection (MHD_pool_reset),
    /// which at 64 KiB was 4% of a small GET under perf: the default is
    /// the least that holds a head of `requestHeaderLimit`.
    public var memoryPerConnection: Int = 32 * 1024
    /// Bytes a request's line and header fields may take, answered 431 when
    /// more; at most half of `memoryPerConnection`.
    public var requestHeaderLimit: Int = 16 * 1024
    /// Query items a request may carry, answered 414 when more, 1 to 10,000:
    /// each is split and decoded before any handler runs.
    public var queryItemLimit: Int = 256
    /// Seconds in which no request begins or ends after which the heap
    /// memory freed meanwhile is given back to the system (see
    /// `IdleMemoryTrim`), 0.01 to 3600; nil never.
    public var memoryTrimDelay: Double? = 1
    /// glibc malloc arenas the whole process may use (mallopt M_ARENA_MAX),
    /// set when the server starts, 1 to 64; nil leaves glibc's eight per
    /// core. Fewer arenas hold less freed memory between bursts, at the
    /// cost of threads sharing an arena's lock.
    public var allocatorArenaLimit: Int?
    /// Serve HTTPS with this certificate and key instead of HTTP.
    public var tls: TLSIdentity?
    /// libmicrohttpd's strict parsing (MHD_OPTION_STRICT_FOR_CLIENT = 1):
    /// HTTP/1.1 requests without Host and targets holding spaces are refused.
    public var isStrict = true
    /// Fields every response carries unless it sets the same name itself.
    public var defaultHeaders: Headers = ["X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"]
    /// Turns the server's refusals (an `HTTPError`) and anything a handler
    /// throws into the response the client gets.
    public var errorResponse: @Sendable (_ error: any Error, _ request: Request?) -> Response = {
        HTTPError.plainResponse(for: $0, request: $1)
    }
    /// Receives a record of every request once it is over; called on a server thread.
    public var requestLog: (@Sendable (RequestRecord) -> Void)?
    /// Receives libmicrohttpd's own diagnostics (a failed accept, a TLS
    /// handshake error), one line each; nil keeps it quiet.
    public var diagnostics: (@Sendable (String) -> Void)?

    public init() {}

    /// `handlerThreadsPerClient` with its default made explicit.
    var handlerShare: Int {
        handlerThreadsPerClient ?? max(1, handlerThreadCount - 1)
    }

    /// `slowHandlerThreads` with its default made explicit.
    var slowHandlerLimit: Int {
        slowHandlerThreads ?? max(1, handlerThreadCount - 1)
    }

    /// Throws a `usage` error naming the first value out of range.
    func validate() throws(MemoError) {
        try Self.check("thread count", threadCount, 1...64)
        try Self.check("handler thread count", handlerThreadCount, 1...256)
        if let handlerThreadsPerClient {
            try Self.check("handler threads per client", handlerThreadsPerClient, 1...handlerThreadCount)
        }
        if let slowHandlerThreads {
            try Self.check("handler threads for slow routes", slowHandlerThreads, 1...handlerThreadCount)
        }
        try Self.check("connection time-out (seconds)", connectionTimeout, 1...3600)
        try Self.check("connection limit", connectionLimit, 1...100_000)
        if !(0.1...3600).contains(bodyTimeAllowance) {
            throw MemoError(.usage, en: "the HTTP server's body time allowance (seconds) must be 0.1 to 3600, not \(bodyTimeAllowance)",
                            ko: "HTTP 서버의 본문 허용 시간(초) 값은 0.1에서 3600 사이여야 합니다(\(bodyTimeAllowance))")
        }
        try Self.check("body minimum rate (bytes per second)", bodyMinimumRate, 1...(1 << 30))
        if let connectionsPerAddress { try Self.check("connections per address", connectionsPerAddress, 1...100_000) }
        try Self.check("memory per connection (bytes)", memoryPerConnection, 8 * 1024...16 * 1024 * 1024)
        try Self.check("request header limit (bytes)", requestHeaderLimit, 1024...memoryPerConnection / 2)
        try Self.check("query item limit", queryItemLimit, 1...10_000)
        if let memoryTrimDelay, !(0.01...3600).contains(memoryTrimDelay) {
            throw MemoError(.usage, en: "the HTTP server's memory trim delay (seconds) must be 0.01 to 3600, not \(memoryTrimDelay)",
                            ko: "HTTP 서버의 메모리 반환 지연(초) 값은 0.01에서 3600 사이여야 합니다(\(memoryTrimDelay))")
        }
        if let allocatorArenaLimit { try Self.check("allocator arena limit", allocatorArenaLimit, 1...64) }
    }

    private static func check(_ name: String, _ value: Int, _ range: ClosedRange<Int>) throws(MemoError) {
        guard range.contains(value) else {
            throw MemoError(.usage,
                            en: "the HTTP server's \(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)",
                            ko: "HTTP 서버의 \(name) 값은 \(range.lowerBound)에서 \(range.upperBound) 사이여야 합니다(\(value))")
        }
    }
}

/// A TLS certificate chain and its private key, both PEM text.
public struct TLSIdentity: Sendable {
    public var certificatePEM: String
    public var privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}

/// One request, once it is over, for the app's log.
public struct RequestRecord: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// The whole response was sent.
        case completed
        /// The client went away, or the connection failed, before the end.
        case failed
        /// The client fell silent for the connection time-out.
        case timedOut
        /// The server stopped first.
        case serverStopped
    }

    public let method: String
    /// The target's path as sent, escapes undecoded, every byte outside
    /// visible ASCII percent-encoded: safe to print. The query is left out
    /// (it may carry what a log should not). `-` (and the method too) when
    /// libmicrohttpd refused the request before its line was whole (a
    /// target longer than the connection's memory: its own 414).
    public let path: String
    /// The status sent, libmicrohttpd's own included (431 for a head too
    /// large, 400 for a malformed header); 0 when none was.
    public let status: Int
    /// Body bytes handed to the connection (0 for HEAD).
    public let bytes: UInt64
    /// From the request line's arrival to the end.
    public let milliseconds: Double
    public let outcome: Outcome
}
