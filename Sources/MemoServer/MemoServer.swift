import HTTPServer
import MemoCore
import MemoKit
import SQLite

/// memoapp's HTTP API on one data home: the routes of docs/api.md over
/// HTTPServer, the database through a pool so that requests on different
/// threads read at once, beside any `memoapp` command on the same home.
///
///     let server = try MemoServer(home: home, configuration: configuration)
///     try server.start()
///     print(server.url)
///     ...
///     server.stop()
public final class MemoServer: @unchecked Sendable {
    public let home: DataHome
    let services: ServerServices
    private let server: Server
    private let events: EventStream
    private let feed: ChangeFeed
    private let alarm: TimerAlarm
    private let watcher: DataHomeWatcher

    /// Opens (creating and migrating) the data home's database. The
    /// configuration's `errorResponse` is replaced by the API's error
    /// envelope. `extraRoutes` lets a test add a route the API does not have,
    /// to check that the hook covers routes it has never seen.
    public init(home: DataHome, configuration: ServerConfiguration, clock: WallClock = SystemWallClock(),
                maximumUpload: UInt64 = MemoServer.defaultMaximumUpload, allowedOrigin: String? = nil,
                eventConfiguration: EventStream.Configuration = EventStream.Configuration(),
                extraRoutes: (inout Router) -> Void = { _ in }) throws {
        self.home = home
        try home.checkUsable()
        // A reader for each handler thread, and for each polling thread,
        // which checks the credentials of a request with a body as its head
        // arrives: none waits for another's reader.
        let pool = try MemoDatabase.openPool(in: home, readers: max(2, configuration.threadCount + configuration.handlerThreadCount))
        services = ServerServices(home: home, pool: pool, clock: clock,
                                  isLoopback: MemoServer.isLoopback(configuration.address), maximumUpload: maximumUpload)
        services.usesTLS = configuration.tls != nil
        var configuration = configuration
        if let allowedOrigin = try allowedOrigin.map(MemoServer.normalizedOrigin) {
            services.allowedOrigin = allowedOrigin
            // Exact, never reflected: every response names the one origin
            // (a browser compares it with its page's; no other page matches).
            configuration.defaultHeaders.set("Access-Control-Allow-Origin", allowedOrigin)
            configuration.defaultHeaders.set("Access-Control-Expose-Headers", "ETag, Location, Link, Retry-After, Undo-Step")
            configuration.defaultHeaders.set("Vary", "Origin")
        }
        // Two malloc arenas for the whole process, not glibc's eight per
        // core: each thread the server starts picks one, and every arena
        // keeps memory freed in it between bursts. Under torture part 11
        // (10 rounds, debug build, two runs each) the server held 28-29 MB
        // after warming up and 28.4-28.6 MB at the end with two, 30-31 MB
        // and 31.0-32.4 MB with sixteen; GET /todos?limit=50 under wrk was
        // no slower (11,624/s against 10,750/s, medians of three runs on a
        // busy two-core machine).
        if configuration.allocatorArenaLimit == nil { configuration.allocatorArenaLimit = 2 }
        // Every local program comes from 127.0.0.1: the handler threads'
        // shares go by credential, so that one token's slow requests leave
        // a thread for the page and the other devices.
        configuration.clientIdentity = { request in Access.credentialIdentity(request) ?? request.remoteHost }
        configuration.errorResponse = { error, request in
            if let stale = error as? StaleItem { return stale.response }
            return ErrorResponses.response(for: error, request: request)
        }
        events = EventStream(eventConfiguration)
        feed = ChangeFeed(services: services, stream: events)
        alarm = TimerAlarm(services: services, stream: events)
        watcher = try DataHomeWatcher(directory: home.path)
        server = Server(configuration: configuration,
                        router: MemoRoutes.make(services, feed: feed, extraRoutes: extraRoutes))
    }

    deinit {
        // A server dropped without `stop` must not leave its threads or its
        // database open.
        stop(gracePeriod: 0)
    }

    /// Binds and starts serving.
    public func start() throws {
        try feed.prime()
        let (feed, alarm, watcher) = (self.feed, self.alarm, self.watcher)
        feed.onTimersChanged = { alarm.poke() }
        services.afterCommit = { watcher.poke() }
        // A look also checks the credentials of the open streams (see
        // `ChangeFeed.endStreamsOfRevokedCredentials`): one when a client
        // subscribes and at each heartbeat.
        events.onSubscribeOrHeartbeat = { watcher.poke() }
        feed.onboardingStream.onSubscribeOrHeartbeat = { watcher.poke() }
        // A scan that fails (a busy database) is made good by the next one.
        watcher.start { try? feed.scan() }
        alarm.start()
        do {
            try server.start()
        } catch {
            watcher.stop()
            alarm.stop()
            throw error
        }
        services.loopbackHosts.set(server.boundAddress.map { Access.loopbackHosts(boundTo: $0) })
    }

    /// The largest audio upload unless told otherwise: an hour of
    /// uncompressed CD audio is 635 MB; this leaves room for longer ones.
    public static let defaultMaximumUpload: UInt64 = 4 << 30

    /// A new single-use sign-in link for the web app (`#code=…`: a fragment
    /// never reaches a server log or a Referer), valid for five minutes.
    public func signInLink() throws -> String {
        let code = try services.write { workspace in
            try WebSessions(connection: workspace.database()).createCode(at: services.clock.now()).code
        }
        return url + "/#code=" + code
    }

    /// Every route the server answers.
    public var routes: [Route] { server.router.routes }

    /// Where it listens (with the port the system chose for port 0).
    public var boundAddress: ListenAddress? { server.boundAddress }

    /// `http://127.0.0.1:8765` (https under TLS), for people and tests: a
    /// URL that reaches the server from this machine. A server on every
    /// address (`0.0.0.0`, `[::]`, which no browser can open) is named by
    /// 127.0.0.1, which it also listens on.
    public var url: String {
        guard let address = server.boundAddress else { return "" }
        let scheme = server.configuration.tls == nil ? "http" : "https"
        guard !MemoServer.isUnspecified(address) else { return "\(scheme)://127.0.0.1:\(address.port)" }
        return "\(scheme)://\(address)"
    }

    /// `0.0.0.0` or `::`: every address of the machine.
    static func isUnspecified(_ address: ListenAddress) -> Bool {
        address.host == "0.0.0.0" || address.host == "::"
    }

    /// Stops gracefully (see `Server.stop`) and closes the database.
    @discardableResult
    public func stop(gracePeriod: Double = 5) -> Int {
        let unfinished = server.stop(gracePeriod: gracePeriod)
        watcher.stop()
        alarm.stop()
        services.pool.close()
        return unfinished
    }

    /// An origin is `scheme://host[:port]` exactly, http or https: never
    /// `null`, `*`, or one with a path.
    public static func checkOrigin(_ origin: String) throws {
        let scheme = origin.prefix(8).lowercased()  // a scheme is case-insensitive
        let rest = scheme.hasPrefix("https://") ? origin.dropFirst(8) : scheme.hasPrefix("http://") ? origin.dropFirst(7) : nil
        guard let rest, !rest.isEmpty, rest.count <= 253,
              rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }) else {
            throw MemoError(.usage, en: "'\(origin)' is not an origin; write it as https://host or http://host:port",
                            ko: "'\(origin)'은(는) 출처(origin)가 아닙니다. https://host 또는 http://host:port로 쓰세요")
        }
    }

    /// `origin` checked (see `checkOrigin`) and written the way a browser
    /// sends its `Origin`: scheme and host in lower case (they compare
    /// without regard to case; `HTTPS://App.Example` would otherwise never
    /// match), the scheme's default port left out.
    public static func normalizedOrigin(_ origin: String) throws -> String {
        try checkOrigin(origin)
        var normalized = origin.lowercased()
        for (scheme, port) in [("http://", ":80"), ("https://", ":443")]
        where normalized.hasPrefix(scheme) && normalized.hasSuffix(port) {
            normalized.removeLast(port.count)
        }
        return normalized
    }

    /// Whether `address` is a loopback one: 127.0.0.0/8 or ::1.
    public static func isLoopback(_ address: ListenAddress) -> Bool {
        switch address.family {
        case .ipv4: return address.host.hasPrefix("127.")
        case .ipv6: return address.host == "::1"
        }
    }
}
