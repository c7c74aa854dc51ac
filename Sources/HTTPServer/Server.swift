#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import MemoCore

/// An HTTP/1.1 (and HTTPS) server: libmicrohttpd parses and polls, on a pool
/// of threads (epoll); the router's handlers run on threads of their own
/// (`HandlerPool`), but for quick routes, answered on the polling thread.
///
///     var router = Router()
///     router.route(.get, "/hello/{name}") { request in .text("hello \(request.parameters["name"]!)") }
///     let server = Server(configuration: ServerConfiguration(), router: router)
///     try server.start()
///     print(server.boundAddress!)       // 127.0.0.1:40123
///     ...
///     server.stop()
///
/// Idle, it uses no CPU: its threads sleep in epoll until a socket or a
/// resumed event stream wakes them.
public final class Server: @unchecked Sendable {
    public let configuration: ServerConfiguration
    public let router: Router
    private let lock = Monitor()
    private var running: Running?
    private var address: ListenAddress?

    private struct Running {
        let core: ServerCore
        let daemon: OpaquePointer
        let listeningSocket: Int32
    }

    public init(configuration: ServerConfiguration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    deinit {
        stop(gracePeriod: 0)
    }

    /// Times freed memory was given back to the system (for tests).
    var memoryTrimCount: Int {
        lock.locked { running?.core.memoryTrim?.trimCount ?? 0 }
    }

    /// Where the server listens once started, with the port the system
    /// chose when the configuration asked for port 0; nil before start.
    public var boundAddress: ListenAddress? {
        lock.locked { address }
    }

    /// Event-stream sockets watched for their clients hanging up now (for tests).
    var departureWatchCount: Int {
        lock.locked { running?.core.departures?.watchedCount ?? 0 }
    }

    /// Loads libmicrohttpd, binds the address and starts the threads.
    /// Throws when a limit is out of range (`usage`), or the library cannot
    /// be loaded, the address cannot be bound or libmicrohttpd refuses to
    /// start (`internalFailure`, with the reason).
    public func start() throws(MemoError) {
        try lock.locked { () throws(MemoError) in
            precondition(running == nil && address == nil, "a Server starts once")
            try configuration.validate()
            let library = try LibMicroHTTPD.loaded()
            if configuration.tls != nil && library.isFeatureSupported(.FEATURE_TLS) != MHD_Result.YES {
                throw MemoError(.internalFailure, en: "this libmicrohttpd was built without TLS support",
                                ko: "이 libmicrohttpd는 TLS 없이 빌드되었습니다")
            }
            if let arenas = configuration.allocatorArenaLimit {
                // glibc reads it whenever a thread needs an arena, so it
                // binds the threads started from here on.
                _ = mallopt(M_ARENA_MAX, Int32(arenas))
            }
            let socket = try Listener.open(configuration.address)
            let core = ServerCore(library: library, configuration: configuration, router: router)
            guard let daemon = DaemonOptions.start(core, listeningSocket: socket) else {
                close(socket)
                core.handlers.stop()
                let reason = core.diagnosticForError.map { " (\($0))" } ?? ""
                throw MemoError(.internalFailure,
                                en: "libmicrohttpd did not start on \(configuration.address)\(reason)",
                                ko: "libmicrohttpd가 \(configuration.address)에서 시작하지 않았습니다\(reason)")
            }
            core.connections.startWatching()
            core.memoryTrim?.start()
            running = Running(core: core, daemon: daemon, listeningSocket: socket)
            address = configuration.address.with(port: SocketAddressText.boundPort(of: socket) ?? configuration.address.port)
        }
    }

    /// Stops gracefully: no new connections are accepted, every event
    /// stream ends, requests in flight get up to `gracePeriod` seconds to
    /// finish (new requests on open connections are answered 503), then the
    /// threads stop and every connection closes. Returns how many requests
    /// were still in flight when the threads were stopped (0 after a clean
    /// stop). A handler still running delays the stop until it returns:
    /// libmicrohttpd joins its threads. Stopping a stopped server does nothing.
    @discardableResult
    public func stop(gracePeriod: Double = 5) -> Int {
        guard let running = lock.locked({ () -> Running? in
            defer { self.running = nil }
            return self.running
        }), running.core.beginStopping() else { return 0 }
        let deadline = MonotonicTime.now().adding(seconds: gracePeriod)
        _ = running.core.library.quiesceDaemon(running.daemon)
        // Quiesced, libmicrohttpd accepts no more, but the kernel would still
        // queue new connections on the socket, to hang until it closes;
        // shutting it down refuses them now. (It is closed only after
        // MHD_stop_daemon: a pool thread may still hold the descriptor.)
        shutdown(running.listeningSocket, Int32(SHUT_RDWR))
        running.core.endEventStreams()
        _ = running.core.waitForRequestsInFlight(until: deadline)
        let unfinished = running.core.endGracePeriod()
        // Handlers still running finish (as they did on libmicrohttpd's own
        // threads, which it joined), each resuming its connection, which is
        // then closed unanswered; a request that reaches its end from now on
        // is closed without being suspended.
        running.core.handlers.closeAndWaitUntilIdle()
        // Every event stream was resumed by endEventStreams, and no new one
        // can suspend: MHD_stop_daemon must find no connection suspended.
        running.core.library.stopDaemon(running.daemon)
        running.core.handlers.stop()
        running.core.connections.stopWatching()
        running.core.memoryTrim?.stop()
        // libmicrohttpd leaves a quiesced listening socket to its owner.
        close(running.listeningSocket)
        // The reference DaemonOptions.start gave libmicrohttpd.
        Unmanaged.passUnretained(running.core).release()
        return unfinished
    }
}
