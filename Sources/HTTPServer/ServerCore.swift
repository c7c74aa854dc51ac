#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import MemoCore

/// The state libmicrohttpd's callbacks share with the `Server` that owns
/// them: configuration, router, the requests in flight and the event
/// subscribers, for a graceful stop. libmicrohttpd holds it (as the `cls`
/// of every callback) from start until `MHD_stop_daemon` has returned.
final class ServerCore: @unchecked Sendable {
    let library: LibMicroHTTPD
    let configuration: ServerConfiguration
    let router: Router
    let lock = Monitor()
    /// Requests whose line arrived and whose end libmicrohttpd has not yet
    /// reported; guarded by `lock`.
    private(set) var requestsInFlight = 0
    /// Set once a stop begins; guarded by `lock`.
    private(set) var isStopping = false
    /// Set once a stop's grace period is over: work done after it is not sent.
    private var gracePeriodIsOver = false
    private var subscribers: [ObjectIdentifier: EventSubscriber] = [:]
    /// Watches event-stream sockets for clients hanging up; nil when the
    /// kernel would not give it descriptors (the heartbeat then finds them).
    let departures = DepartureWatch()
    /// Makes room for clients that send requests (see `ConnectionGuard`).
    let connections: ConnectionGuard
    /// Where route handlers run, off the polling threads (see `HandlerPool`).
    let handlers: HandlerPool
    /// Gives freed memory back after a burst; nil when configured off.
    let memoryTrim: IdleMemoryTrim?
    /// libmicrohttpd's last diagnostic, kept to explain a failed start.
    private var lastDiagnostic: String?
    /// The status libmicrohttpd last answered by itself on each polling
    /// thread, until that connection closes (see `refusedBeforeRequest`);
    /// guarded by `lock`.
    private var ownRefusals: [pthread_t: Int] = [:]
    /// The formatted-message sink the C logger trampoline calls; lives as long as this.
    let messageSink: UnsafeMutablePointer<cmhd_message_sink>

    init(library: LibMicroHTTPD, configuration: ServerConfiguration, router: Router) {
        self.library = library
        self.configuration = configuration
        self.router = router
        connections = ConnectionGuard(connectionLimit: configuration.connectionLimit,
                                      perAddress: configuration.connectionsPerAddress,
                                      bodyTime: .init(allowance: configuration.bodyTimeAllowance,
                                                      minimumRate: Double(configuration.bodyMinimumRate)))
        handlers = HandlerPool(threadCount: configuration.handlerThreadCount, perClient: configuration.handlerShare,
                               slowLimit: configuration.slowHandlerLimit)
        memoryTrim = configuration.memoryTrimDelay.map(IdleMemoryTrim.init(delay:))
        messageSink = .allocate(capacity: 1)
        messageSink.initialize(to: cmhd_message_sink(deliver: { context, message in
            guard let context, let message else { return }
            Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().diagnose(String(cString: message))
        }, context: nil))
        messageSink.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        messageSink.deallocate()
    }

    // MARK: Requests in flight

    func requestBegan() {
        lock.locked { requestsInFlight += 1 }
        memoryTrim?.noteActivity()
    }

    func requestEnded() {
        lock.locked {
            requestsInFlight -= 1
            lock.broadcast()
        }
        memoryTrim?.noteActivity()
    }

    var stopping: Bool {
        lock.locked { isStopping }
    }

    /// Marks the stop begun; false when it already was.
    func beginStopping() -> Bool {
        lock.locked {
            defer { isStopping = true }
            return !isStopping
        }
    }

    var isPastGracePeriod: Bool {
        lock.locked { gracePeriodIsOver }
    }

    /// Ends the grace period; how many requests are in flight at its end.
    func endGracePeriod() -> Int {
        lock.locked {
            gracePeriodIsOver = true
            return requestsInFlight
        }
    }

    /// Waits until no request is in flight or until `deadline`; true when none is.
    func waitForRequestsInFlight(until deadline: MonotonicTime) -> Bool {
        lock.locked { lock.wait(until: deadline) { requestsInFlight == 0 } }
    }

    /// A connection was accepted: into the guard's table, by its socket and
    /// its client's host.
    func connectionOpened(_ connection: OpaquePointer) {
        guard let socket = library.connectionInfo(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd,
              let address = library.connectionInfo(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr
        else { return }
        let text = SocketAddressText.describe(address)
        // The host alone: `127.0.0.1:53122` and `[::1]:53122` without the port.
        let host = text.lastIndex(of: ":").map { String(text[..<$0]) } ?? text
        connections.opened(connection, socket: socket, address: host)
    }

    // MARK: Event subscribers

    /// Registers a new subscriber so a stop can end it; ends it at once when
    /// the stop has begun.
    func register(_ subscriber: EventSubscriber, lastEventID: String?) {
        let accepted = lock.locked { () -> Bool in
            if isStopping { return false }
            subscribers[ObjectIdentifier(subscriber)] = subscriber
            return true
        }
        subscriber.stream.attach(subscriber, lastEventID: lastEventID)
        if !accepted {
            subscriber.stream.end(subscriber)
        } else if let departures,
                  let info = library.connectionInfo(subscriber.connection, .CONNECTION_INFO_CONNECTION_FD) {
            subscriber.departureKey = departures.watch(subscriber, socket: info.pointee.connect_fd)
        }
    }

    func unregister(_ subscriber: EventSubscriber) {
        if let key = subscriber.departureKey { departures?.forget(key) }
        subscriber.stream.detach(subscriber)
        lock.locked { subscribers[ObjectIdentifier(subscriber)] = nil }
    }

    /// Ends every event stream this server serves, resuming the suspended
    /// connections: libmicrohttpd must not be stopped with one suspended.
    func endEventStreams() {
        let current = lock.locked { Array(subscribers.values) }
        for subscriber in current { subscriber.stream.end(subscriber) }
    }

    // MARK: Diagnostics

    private func diagnose(_ message: String) {
        let line = printable(message.trimmingCharacters(in: "\n"), limit: 400)
        let refusal = ServerCore.ownRefusalStatus(message)
        lock.locked {
            lastDiagnostic = line
            if let refusal { ownRefusals[pthread_self()] = refusal }
        }
        configuration.diagnostics?(line)
    }

    // MARK: libmicrohttpd's own refusals

    // libmicrohttpd 0.9.75 answers some requests itself, with a fixed HTML
    // body, before any callback of the app's: a request line longer than
    // the connection's memory gets 414 (src/microhttpd/connection.c,
    // get_next_header_line and MHD_connection_update_event_loop_info call
    // transmit_error_response while `connection->url` is still NULL, and
    // the URI log callback comes only once the line is whole), and a
    // malformed HTTP version 400 or 505. No callback is told of the
    // request, so it reached no log: its one trace is the diagnostic
    // libmicrohttpd writes just before, on the connection's own polling
    // thread, "Error processing request (HTTP response code is 414 (...)).
    // Closing connection." That status is kept for the thread, and the
    // connection closing next on it without a request having begun (the
    // refusal closes it at once) is logged with it; a request that had
    // begun is logged by its own end, which forgets it.

    /// The status in libmicrohttpd's diagnostic of an answer it made itself, if it is one.
    static func ownRefusalStatus(_ message: String) -> Int? {
        let opening = "Error processing request (HTTP response code is "
        guard message.hasPrefix(opening) else { return nil }
        let digits = message.dropFirst(opening.count).prefix(while: \.isNumber)
        return digits.count == 3 ? Int(digits) : nil
    }

    /// A request's end was reported on this thread: any refusal of its was
    /// its own, logged with it.
    func requestEndedOnThisThread() {
        lock.locked { _ = ownRefusals.removeValue(forKey: pthread_self()) }
    }

    /// A connection closed on this thread; the status libmicrohttpd
    /// answered it with before any request began, if it did.
    func refusedBeforeRequest() -> Int? {
        lock.locked { ownRefusals.removeValue(forKey: pthread_self()) }
    }

    var diagnosticForError: String? {
        lock.locked { lastDiagnostic }
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
