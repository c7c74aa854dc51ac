#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable on the monotonic clock: the one lock
/// memoapp's threads share state under (the HTTP server's connections and
/// event streams, the server's caches, the helper threads that sleep until
/// told or until a deadline, an import's two threads). Foundation stays out
/// of the modules below the front ends (it would cost every memoapp start),
/// so this is POSIX threads directly, kept in allocated memory because
/// pthread objects must not move. (`SQLite` keeps its own: that module
/// depends on nothing of memoapp's.)
public final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure elapsed time, which the wall clock may jump across.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    public func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Holding the mutex: wakes every waiting thread, after changing what
    /// they wait for.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Holding the mutex: waits to be woken, or until `seconds` pass (nil: no
    /// limit). Wake-ups without a broadcast happen; callers check their state
    /// again.
    public func wait(seconds: Double?) {
        guard let seconds else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var deadline = MonotonicTime.now().adding(seconds: min(seconds, 365 * 86400)).asTimespec
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Holding the mutex: waits until `isDone()` or the monotonic `deadline`
    /// (nil: no time limit). Returns `isDone()`'s last answer.
    public func wait(until deadline: MonotonicTime?, _ isDone: () -> Bool) -> Bool {
        while !isDone() {
            if let deadline {
                var limit = deadline.asTimespec
                if pthread_cond_timedwait(condition, mutex, &limit) == ETIMEDOUT { return isDone() }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return true
    }
}

/// A reading of the monotonic clock, in nanoseconds: for durations and
/// deadlines, never for dates.
public struct MonotonicTime: Comparable, Sendable {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    public static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    /// Seconds since the clock's start (the boot): for durations only.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public func adding(seconds: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: nanoseconds + UInt64(max(0, seconds) * 1e9))
    }

    /// Milliseconds from `earlier` to this reading.
    public func milliseconds(since earlier: MonotonicTime) -> Double {
        nanoseconds >= earlier.nanoseconds ? Double(nanoseconds - earlier.nanoseconds) / 1e6 : 0
    }

    public var asTimespec: timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
