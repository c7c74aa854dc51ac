#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import MemoCore

/// Notices at once when the client of an event stream hangs up.
///
/// libmicrohttpd stops polling a connection while it is suspended, and an
/// event-stream connection is suspended whenever it has nothing to send:
/// a client that left would be found only at the next write to it (the
/// heartbeat, 30 s later by default), its connection holding one of the
/// server's limited slots all that while. So each subscriber's socket is
/// also watched here, in an epoll set of its own, for the peer's hang-up
/// alone (EPOLLRDHUP, EPOLLHUP, EPOLLERR; never for data, which the
/// connection's own thread reads): the subscriber is then cut, its
/// connection resumed and closed by libmicrohttpd, and its slot freed.
/// (A client that only shuts down its sending side is taken as gone too:
/// an event-stream client has nothing to send after its request, so its
/// end of the stream closing means it is leaving.)
///
/// The watch holds a duplicate of each socket descriptor until the
/// subscriber's response is released, so the number it registered can never
/// name another connection's socket meanwhile. One thread waits in
/// epoll_wait while anything is watched, and none when nothing is, so an
/// idle server has no thread here at all.
final class DepartureWatch: @unchecked Sendable {
    private let lock = Monitor()
    private let poller: Int32
    /// An eventfd in the epoll set (key 0) that wakes the thread to let it
    /// see that nothing is left to watch.
    private let wakeup: Int32
    private var watched: [UInt64: (descriptor: Int32, subscriber: EventSubscriber)] = [:]
    private var nextKey: UInt64 = 1
    private var isThreadRunning = false

    /// Nil when the kernel gives no epoll set or eventfd (out of
    /// descriptors); departures are then noticed at the heartbeat, as before.
    init?() {
        let poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard poller >= 0 else { return nil }
        let wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeup >= 0 else {
            close(poller)
            return nil
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: 0))
        guard epoll_ctl(poller, EPOLL_CTL_ADD, wakeup, &event) == 0 else {
            close(wakeup)
            close(poller)
            return nil
        }
        self.poller = poller
        self.wakeup = wakeup
    }

    deinit {
        for entry in watched.values { close(entry.descriptor) }
        close(wakeup)
        close(poller)
    }

    /// Watches `socket` (the subscriber's connection, still open) until
    /// `forget` with the returned key; nil when it cannot be watched.
    func watch(_ subscriber: EventSubscriber, socket: Int32) -> UInt64? {
        let descriptor = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { return nil }
        return lock.locked { () -> UInt64? in
            let key = nextKey
            // One report is enough: the subscriber is cut at the first.
            var event = epoll_event(events: EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
                                        | EPOLLONESHOT.rawValue,
                                    data: epoll_data_t(u64: key))
            guard epoll_ctl(poller, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                close(descriptor)
                return nil
            }
            nextKey += 1
            watched[key] = (descriptor, subscriber)
            if !isThreadRunning {
                isThreadRunning = true
                startDetachedThread { [self] in waitForDepartures() }
            }
            return key
        }
    }

    /// Stops watching (the subscriber's response is released).
    func forget(_ key: UInt64) {
        lock.locked {
            guard let entry = watched.removeValue(forKey: key) else { return }
            // Closing the last descriptor of a socket also takes it out of the epoll set.
            close(entry.descriptor)
            if watched.isEmpty { signalWakeup() }
        }
    }

    /// Sockets watched now (for tests).
    var watchedCount: Int {
        lock.locked { watched.count }
    }

    private func signalWakeup() {
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    /// The watch thread: cuts each subscriber whose client hung up, and ends
    /// once nothing is watched.
    private func waitForDepartures() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(poller, $0.baseAddress, Int32($0.count), -1)
            }
            if count < 0 && errno != EINTR {
                lock.locked { isThreadRunning = false }
                return
            }
            var departed: [EventSubscriber] = []
            let isDone = lock.locked { () -> Bool in
                for event in events.prefix(max(0, Int(count))) {
                    let key = event.data.u64
                    if key == 0 {
                        var counter: UInt64 = 0
                        _ = read(wakeup, &counter, MemoryLayout<UInt64>.size)
                    } else if let entry = watched[key] {
                        departed.append(entry.subscriber)
                    }
                }
                if watched.isEmpty { isThreadRunning = false }
                return watched.isEmpty
            }
            // Outside this lock: cutting takes the stream's lock and
            // libmicrohttpd's, and forget (under them) takes this one.
            for subscriber in departed { subscriber.stream.depart(subscriber) }
            if isDone { return }
        }
    }
}
