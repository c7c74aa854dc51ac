import MemoCore

/// A Server-Sent Events channel the app publishes to and clients subscribe
/// to (https://html.spec.whatwg.org/multipage/server-sent-events.html).
///
/// No thread waits per subscriber: a subscriber's connection is suspended
/// in libmicrohttpd while it has nothing to send and resumed when an event
/// or a heartbeat comment is queued for it. Each event gets the next id; the
/// last `historyLimit` events are kept, so a client reconnecting with
/// `Last-Event-ID` gets what it missed. When it missed more than is kept (or
/// names an id this stream never gave, e.g. one from before a restart), it
/// first gets one `resync` event, carrying the newest id, telling it to
/// fetch its state anew.
///
/// The heartbeat comment every `heartbeatInterval` keeps proxies from
/// closing an idle stream. A client that hangs up is noticed at once by the
/// server's `DepartureWatch` (a suspended connection sees nothing of its
/// socket), and at the latest at the next write to it.
public final class EventStream: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Events kept for clients that reconnect, 0 to 100,000.
        public var historyLimit = 256
        /// Seconds between heartbeat comments, 0.05 to 3600.
        public var heartbeatInterval = 30.0
        /// Bytes that may wait for one subscriber that reads too slowly,
        /// 1 KiB to 64 MiB; a subscriber with more than that waiting is cut
        /// at the next event (it reconnects and catches up from the history,
        /// or is told to resync when that is more than this). One event of
        /// any size is queued for a subscriber within the limit.
        public var backlogLimit = 1 << 20
        /// The first event's id; an app that keeps ids across restarts starts
        /// past the last one it gave.
        public var firstID: UInt64 = 1
        /// The event type telling a client its state is stale.
        public var resyncEventType = "resync"

        public init() {}
    }

    public let configuration: Configuration
    let lock = Monitor()
    private var nextID: UInt64
    private var history: [(id: UInt64, bytes: SharedBytes)] = []
    private var historyStart = 0
    private var subscribers: [ObjectIdentifier: EventSubscriber] = [:]
    private var isHeartbeatRunning = false
    private var isClosed = false

    public init(_ configuration: Configuration = Configuration()) {
        precondition((0...100_000).contains(configuration.historyLimit), "historyLimit out of range")
        precondition((0.05...3600).contains(configuration.heartbeatInterval), "heartbeatInterval out of range")
        precondition((1024...64 << 20).contains(configuration.backlogLimit), "backlogLimit out of range")
        precondition((1..<UInt64.max / 2).contains(configuration.firstID), "firstID out of range")
        EventStream.checkFieldValue(configuration.resyncEventType)
        self.configuration = configuration
        self.nextID = configuration.firstID
    }

    /// Sends `data` (any text; each line becomes a `data:` line) as an event
    /// of type `event` (the client's `message` when nil) to every subscriber,
    /// keeps it for reconnecting ones, and returns its id.
    @discardableResult
    public func publish(data: String, event: String? = nil) -> UInt64 {
        if let event { EventStream.checkFieldValue(event) }
        return lock.locked {
            let id = nextID
            nextID += 1
            let bytes = SharedBytes(EventStream.encode(id: id, event: event, data: data))
            if configuration.historyLimit > 0 {
                history.append((id, bytes))
                trimHistory()
            }
            for subscriber in subscribers.values { subscriber.enqueue(bytes) }
            return id
        }
    }

    /// A response that subscribes the requesting client: `text/event-stream`,
    /// open until the client leaves, the stream closes or the server stops.
    ///
    /// `owner` names whose subscription it is in the app's words (a
    /// credential), so that the app can end every stream of an owner that
    /// may no longer read (`end(owners:)`): a stream outlives the check
    /// its request passed.
    public func response(for request: Request, headers: Headers = [:], owner: String? = nil) -> Response {
        var fields = headers
        fields.set("Content-Type", "text/event-stream; charset=utf-8")
        let subscription = EventSubscription(stream: self, lastEventID: request.headers["Last-Event-ID"], owner: owner)
        return Response(status: 200, headers: fields, body: .events(subscription))
    }

    /// Clients subscribed now.
    public var subscriberCount: Int {
        lock.locked { subscribers.count }
    }

    /// The owners of the subscriptions open now (those given one).
    public var owners: Set<String> {
        lock.locked { Set(subscribers.values.compactMap(\.owner)) }
    }

    /// Ends at once every subscription of these owners, dropping what was
    /// queued for them (their credential was revoked, their session ended).
    public func end(owners: Set<String>) {
        guard !owners.isEmpty else { return }
        lock.locked {
            for subscriber in subscribers.values where subscriber.owner.map(owners.contains) ?? false {
                subscriber.endWithoutQueued()
            }
        }
    }

    /// Called (on the thread that subscribed, after the subscription is
    /// in) whenever a client subscribes, and on every heartbeat: an app
    /// that ends subscriptions by `end(owners:)` looks at their owners
    /// then. At subscription, because the credential the request passed
    /// may have been revoked between its check and now; at heartbeats,
    /// because a credential can also lapse with time, which nothing
    /// announces. Set before the server starts; it must not block.
    public var onSubscribeOrHeartbeat: (@Sendable () -> Void)?

    /// The id the next event will get.
    public var upcomingID: UInt64 {
        lock.locked { nextID }
    }

    /// Ends every subscription (their responses finish normally) and every
    /// later one at once; publishing goes on only into the history.
    public func close() {
        lock.locked {
            isClosed = true
            for subscriber in subscribers.values { subscriber.end() }
            lock.broadcast()
        }
    }

    // MARK: - Subscribers (the server's side)

    /// Adds `subscriber` with what it missed since `lastEventID`.
    func attach(_ subscriber: EventSubscriber, lastEventID: String?) {
        lock.locked {
            if let lastEventID { replay(after: lastEventID, to: subscriber) }
            if isClosed { subscriber.end() }
            subscribers[ObjectIdentifier(subscriber)] = subscriber
            if !isHeartbeatRunning {
                isHeartbeatRunning = true
                startDetachedThread { [self] in sendHeartbeats() }
            }
            lock.broadcast()
        }
        onSubscribeOrHeartbeat?()
    }

    func detach(_ subscriber: EventSubscriber) {
        lock.locked {
            subscriber.detach()
            subscribers[ObjectIdentifier(subscriber)] = nil
            lock.broadcast()
        }
    }

    /// Ends one subscription (the server is stopping).
    func end(_ subscriber: EventSubscriber) {
        lock.locked { subscriber.end() }
    }

    /// Cuts one subscription whose client hung up.
    func depart(_ subscriber: EventSubscriber) {
        lock.locked { subscriber.cut() }
    }

    // MARK: - Private

    /// Queues the kept events after `lastEventID`, or the resync event when
    /// the history does not reach back that far or never held that id, or
    /// when what was missed would not fit the backlog: queued, it would cut
    /// the subscriber at once, and every resume of it after.
    private func replay(after lastEventID: String, to subscriber: EventSubscriber) {
        let newest = nextID - 1
        let kept = history[historyStart...]
        let oldestKept = kept.first?.id ?? nextID
        if let last = UInt64(lastEventID.trimmingASCIISpaces), last <= newest, last + 1 >= oldestKept,
           fitsBacklog(kept.filter { $0.id > last }) {
            for event in kept where event.id > last { subscriber.enqueue(event.bytes, mayCut: false) }
        } else {
            let marker = EventStream.encode(id: newest, event: configuration.resyncEventType, data: "")
            subscriber.enqueue(SharedBytes(marker))
        }
    }

    /// Whether a new subscriber may be given `events` to catch up: what
    /// waits behind the first of them is within the backlog limit, the
    /// measure `EventSubscriber.enqueue` cuts a subscriber by (so one event
    /// of any size is replayed, as it is sent live).
    private func fitsBacklog(_ events: [(id: UInt64, bytes: SharedBytes)]) -> Bool {
        events.dropFirst().reduce(0) { $0 + $1.bytes.bytes.count } <= configuration.backlogLimit
    }

    private func trimHistory() {
        let excess = history.count - historyStart - configuration.historyLimit
        if excess > 0 { historyStart += excess }
        // Compact now and then rather than shifting the array on every event.
        if historyStart > configuration.historyLimit {
            history.removeFirst(historyStart)
            historyStart = 0
        }
    }

    /// The heartbeat thread: one per stream, and only while it has
    /// subscribers, so an idle server has no thread waking up.
    private func sendHeartbeats() {
        while true {
            let isGoingOn = lock.locked { () -> Bool in
                let deadline = MonotonicTime.now().adding(seconds: configuration.heartbeatInterval)
                if isClosed || subscribers.isEmpty || lock.wait(until: deadline, { isClosed || subscribers.isEmpty }) {
                    isHeartbeatRunning = false
                    return false
                }
                for subscriber in subscribers.values { subscriber.enqueue(EventStream.heartbeat) }
                return true
            }
            guard isGoingOn else { return }
            // Outside the lock: what it does may take the lock (`end(owners:)`).
            onSubscribeOrHeartbeat?()
        }
    }

    private static let heartbeat = SharedBytes(Array(": heartbeat\n\n".utf8))

    /// One event in the stream format: `id`, `event` when given, then one
    /// `data:` line per line of `data` (CR, LF and CRLF all end a line).
    static func encode(id: UInt64, event: String?, data: String) -> [UInt8] {
        var text = "id: \(id)\n"
        if let event { text += "event: \(event)\n" }
        var line = ""
        var previousWasCR = false
        for scalar in data.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                text += "data: \(line)\n"
                line = ""
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        text += "data: \(line)\n\n"
        return Array(text.utf8)
    }

    /// An event type is the app's own word; a line break in it would forge
    /// fields, so it is a programming mistake.
    private static func checkFieldValue(_ value: String) {
        precondition(!value.isEmpty && !value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\0" },
                     "an event type must be non-empty and one line")
    }
}

/// A subscription a response carries to the server (`EventStream.response(for:)`).
public struct EventSubscription: Sendable {
    let stream: EventStream
    let lastEventID: String?
    let owner: String?
}

/// Bytes shared by every subscriber an event is queued for.
final class SharedBytes: @unchecked Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

extension String {
    var trimmingASCIISpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
