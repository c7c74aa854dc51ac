#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Keeps room for clients that send requests when others only hold
/// connections open.
///
/// A connection that has not sent a whole request head (a new one, or a
/// kept-alive one between requests) serves nobody yet. libmicrohttpd keeps
/// each until it falls silent for the time-out, so one byte every few
/// seconds held it: 64 such connections from 127.0.0.1 filled that
/// address's share and shut out every other client on it, and 17 loopback
/// addresses of 64 each filled the server (issue 29, finding 4). Every
/// address in 127.0.0.0/8 is the same machine, so limits per address alone
/// cannot be fair there. Instead, when a connection arrives and its address
/// already holds its share, or the server is within `reserve` of its limit,
/// the connections waiting longest for a head are closed to make room
/// (`shutdown(2)` on their sockets, which libmicrohttpd then sees end). A
/// connection inside a request (an upload, an event stream, an answer
/// being sent) is never closed this way; a client whose kept-alive
/// connection is closed opens another, as it would after the time-out.
/// Only when an address holds its share all in requests is its newcomer
/// refused (closed at once), as libmicrohttpd's own limit per address did.
///
/// It also cuts uploads whose client has left (`cutDepartedSenders`):
/// libmicrohttpd 0.9.75 noticed a client that closed half-way through a
/// chunked body only at the time-out, 15 s on (issue 29, finding 12). And
/// it cuts bodies that arrive too slowly (`BodyTime`): the time-out counts
/// only silence, so a byte every few seconds held a connection for as long
/// as the body's length allowed, and a whole head with no body held one
/// for 15 s, on routes open to anyone (issue 29). Such a body is cut, not
/// answered: libmicrohttpd 0.9.75 queues a response only before a body's
/// first byte or after its last (`MHD_queue_response` refuses any other
/// state, src/microhttpd/connection.c), and one that never ends has no last.
///
/// Fed by libmicrohttpd's connection notifications (started, closed) and by
/// the request callbacks (a head complete, body bytes, a request over). A socket is
/// shut down only while its connection is in the table, under the lock the
/// closed notification takes before libmicrohttpd closes the descriptor,
/// so a descriptor number reused by a later connection is never touched.
final class ConnectionGuard: @unchecked Sendable {
    /// Connections allowed from one address; nil for no limit.
    let perAddress: Int?
    /// Open connections past which waiting ones are closed to make room:
    /// the server's limit less a reserve, so newcomers always find a place.
    let threshold: Int
    let bodyTime: BodyTime
    /// Seconds a connection must have waited for a head before it is closed
    /// to keep the server's reserve (see `opened`).
    let idleAge: Double

    /// How long a request body may take: `allowance` seconds from its head,
    /// and a second more for every `minimumRate` bytes of its length
    /// (declared, or for a chunked body what has arrived).
    struct BodyTime {
        let allowance: Double
        let minimumRate: Double

        func isPast(since start: MonotonicTime, length: UInt64, at now: MonotonicTime) -> Bool {
            now.milliseconds(since: start) / 1000 > allowance + Double(length) / minimumRate
        }
    }

    private final class Entry {
        let socket: Int32
        let address: String
        var isInRequest = false
        /// Since when it has waited for a head (opened, or its last request over).
        var waitingSince: MonotonicTime
        var isShutDown = false
        /// Its request's body is arriving: bytes so far, and at the last look.
        var isReceivingBody = false
        var bodyBytes: UInt64 = 0
        var bodyBytesAtLastLook: UInt64 = 0
        /// Looks in a row that found its client gone and nothing new.
        var departedLooks = 0
        /// When its head arrived, and the body's declared length.
        var bodyStart = MonotonicTime(nanoseconds: 0)
        var declaredLength: UInt64?
        /// Its body was cut for taking too long.
        var isCutForTime = false

        init(socket: Int32, address: String, at now: MonotonicTime) {
            self.socket = socket
            self.address = address
            waitingSince = now
        }
    }

    private let mutex = Monitor()
    private var entries: [UInt: Entry] = [:]
    /// Open connections not shut down, per address and in all.
    private var counts: [String: Int] = [:]
    private var open = 0
    /// Connections this guard has closed, for tests and diagnostics.
    private(set) var evictions = 0
    private var watcher: pthread_t?
    private var isWatchStopping = false

    init(connectionLimit: Int, perAddress: Int?, bodyTime: BodyTime = BodyTime(allowance: 3600, minimumRate: 1),
         idleAge: Double = 1) {
        self.perAddress = perAddress
        self.bodyTime = bodyTime
        self.idleAge = idleAge
        threshold = max(1, connectionLimit - max(1, connectionLimit / 16))
    }

    /// A connection was accepted from `address` (host only) on `socket`.
    func opened(_ connection: OpaquePointer, socket: Int32, address: String) {
        mutex.locked {
            let entry = Entry(socket: socket, address: address, at: .now())
            entries[key(connection)] = entry
            counts[address, default: 0] += 1
            open += 1
            if let perAddress, counts[address, default: 0] > perAddress {
                shutDown(oldestWaiting { $0.address == address && $0 !== entry } ?? entry)
            }
            // Near the server's limit, only a connection that has waited a
            // while is idle: one accepted a moment ago may not have sent
            // its head yet (a client connects, then writes). 1,000 clients
            // subscribing to events at once went past the threshold, and
            // each newcomer closed another newcomer, its head on the way.
            // Fresh connections past the reserve wait for their age, up to
            // libmicrohttpd's own limit; the idle ones of issue 29's finding
            // 4 had waited seconds.
            makeRoom(sparing: entry, at: .now())
            // Those too young now are closed by the watcher once of age:
            // past libmicrohttpd's own limit no newcomer is accepted, so no
            // later `opened` would ever come to close them, and a burst of
            // idle clients would hold every place until the time-out.
            if open > threshold { mutex.broadcast() }
        }
    }

    /// Closes the connections idle for `idleAge` or more, longest waiting
    /// first, until no more than `threshold` are open or none is left to
    /// close; how many it closed. (`mutex` held.)
    @discardableResult
    private func makeRoom(sparing spared: Entry? = nil, at now: MonotonicTime) -> Int {
        var closed = 0
        while open > threshold,
              let victim = oldestWaiting({ $0 !== spared && now.milliseconds(since: $0.waitingSince) >= idleAge * 1000 }) {
            shutDown(victim)
            closed += 1
        }
        return closed
    }

    /// Makes room as a newcomer does (see `opened`), for connections that
    /// have come of age since; how many it closed.
    @discardableResult
    func makeRoomForNewcomers(at now: MonotonicTime = .now()) -> Int {
        mutex.locked { makeRoom(at: now) }
    }

    /// The connection is closed: it leaves the table before libmicrohttpd
    /// closes its descriptor.
    func closed(_ connection: OpaquePointer) {
        mutex.locked {
            guard let entry = entries.removeValue(forKey: key(connection)) else { return }
            if !entry.isShutDown { forget(entry) }
        }
    }

    /// A whole head has arrived: the connection is in a request, and a
    /// body's time counts from now.
    func headArrived(_ connection: OpaquePointer) {
        mutex.locked {
            guard let entry = entries[key(connection)] else { return }
            entry.isInRequest = true
            entry.isCutForTime = false
            entry.bodyStart = .now()
        }
    }

    /// Its request is over: it waits for the next head from now.
    func requestEnded(_ connection: OpaquePointer) {
        mutex.locked {
            guard let entry = entries[key(connection)] else { return }
            entry.isInRequest = false
            entry.isReceivingBody = false
            entry.waitingSince = .now()
        }
    }

    /// Its request's body begins to arrive, `declaredLength` bytes long if
    /// it said (or ends: `isArriving` false).
    func body(of connection: OpaquePointer, isArriving: Bool, declaredLength: UInt64? = nil) {
        mutex.locked {
            guard let entry = entries[key(connection)] else { return }
            entry.isReceivingBody = isArriving
            entry.declaredLength = declaredLength
            entry.bodyBytes = 0
            entry.bodyBytesAtLastLook = 0
            entry.departedLooks = 0
            if isArriving { mutex.broadcast() }
        }
    }

    /// `count` more body bytes arrived.
    func bodyArrived(_ count: Int, on connection: OpaquePointer) {
        mutex.locked { entries[key(connection)]?.bodyBytes += UInt64(count) }
    }

    /// Looks at every connection whose body is arriving and shuts down
    /// those whose client has closed its side with nothing left unread
    /// (a peek reads the end of the stream, or the connection was reset)
    /// and whose body has not grown since the look before: a body that
    /// can never be finished. Two looks, so that bytes libmicrohttpd has
    /// read but not yet handed over are not mistaken for none. How many
    /// it shut down.
    @discardableResult
    func cutDepartedSenders() -> Int {
        mutex.locked {
            var cut = 0
            for entry in entries.values where entry.isReceivingBody && !entry.isShutDown {
                var byte: UInt8 = 0
                let peeked = recv(entry.socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                let hasLeft = peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                if hasLeft && entry.bodyBytes == entry.bodyBytesAtLastLook {
                    entry.departedLooks += 1
                } else {
                    entry.departedLooks = 0
                }
                entry.bodyBytesAtLastLook = entry.bodyBytes
                if entry.departedLooks >= 2 {
                    shutDown(entry)
                    cut += 1
                }
            }
            return cut
        }
    }

    /// Shuts down the connections whose body has taken longer than
    /// `bodyTime` allows; how many.
    @discardableResult
    func cutSlowSenders(at now: MonotonicTime = .now()) -> Int {
        mutex.locked {
            var cut = 0
            for entry in entries.values where entry.isReceivingBody && !entry.isShutDown {
                let length = max(entry.declaredLength ?? 0, entry.bodyBytes)
                guard bodyTime.isPast(since: entry.bodyStart, length: length, at: now) else { continue }
                entry.isCutForTime = true
                shutDown(entry)
                cut += 1
            }
            return cut
        }
    }

    /// Whether the connection's body was cut for taking too long.
    func wasCutForTime(_ connection: OpaquePointer) -> Bool {
        mutex.locked { entries[key(connection)]?.isCutForTime ?? false }
    }

    /// Looks for departed and slow senders every `interval` seconds while some body
    /// is arriving, and makes room while more than `threshold` connections
    /// are open, on a thread of its own, until `stopWatching`; sleeps
    /// otherwise.
    func startWatching(interval: Double = 0.25) {
        watcher = startJoinableThread { [self] in
            while true {
                let isStopping = mutex.locked { () -> Bool in
                    _ = mutex.wait(until: nil) {
                        isWatchStopping || open > threshold || entries.values.contains { $0.isReceivingBody }
                    }
                    _ = mutex.wait(until: MonotonicTime.now().adding(seconds: interval)) { isWatchStopping }
                    return isWatchStopping
                }
                if isStopping { return }
                cutDepartedSenders()
                cutSlowSenders()
                makeRoomForNewcomers()
            }
        }
    }

    func stopWatching() {
        mutex.locked {
            isWatchStopping = true
            mutex.broadcast()
        }
        if let watcher { pthread_join(watcher, nil) }
        watcher = nil
    }

    var evictionCount: Int {
        mutex.locked { evictions }
    }

    // MARK: - Private (under `mutex`)

    private func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    /// The connection waiting longest for a head whose socket holds no
    /// unread bytes, among those `isCandidate` accepts.
    ///
    /// A connection with bytes in its socket is not idle: its request has
    /// come, and waits only for its polling thread to read it. libmicrohttpd
    /// accepts a burst of connections before it reads any of them, so 1,000
    /// clients subscribing to events at once (scripts/bench) went past the
    /// threshold while the heads of those accepted a moment before were
    /// still unread, and some were closed with their requests in their
    /// sockets (975 subscribers failed where 955 held). An idle client's
    /// byte every few seconds is read at once, so it cannot hide this way.
    /// The unread bytes are asked of the oldest alone, and of the next only
    /// when it has some: one `ioctl` in the usual case.
    private func oldestWaiting(_ isCandidate: (Entry) -> Bool) -> Entry? {
        var passedOver: Set<ObjectIdentifier> = []
        while true {
            var oldest: Entry?
            for entry in entries.values where !entry.isInRequest && !entry.isShutDown && isCandidate(entry)
                && !passedOver.contains(ObjectIdentifier(entry)) {
                if oldest.map({ entry.waitingSince < $0.waitingSince }) ?? true { oldest = entry }
            }
            guard let oldest, ConnectionGuard.hasUnreadBytes(oldest.socket) else { return oldest }
            passedOver.insert(ObjectIdentifier(oldest))
        }
    }

    /// Whether the kernel holds bytes received on `socket` that nobody has read.
    private static func hasUnreadBytes(_ socket: Int32) -> Bool {
        var count: Int32 = 0
        return ioctl(socket, UInt(FIONREAD), &count) == 0 && count > 0
    }

    private func shutDown(_ entry: Entry) {
        guard !entry.isShutDown else { return }
        entry.isShutDown = true
        forget(entry)
        evictions += 1
        _ = Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
    }

    private func forget(_ entry: Entry) {
        open -= 1
        counts[entry.address, default: 1] -= 1
        if counts[entry.address] == 0 { counts[entry.address] = nil }
    }
}
