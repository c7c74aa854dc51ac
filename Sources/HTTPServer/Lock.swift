#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable on the monotonic clock, for the state
/// libmicrohttpd's threads, the publishing app and a stopping server share.
///
/// Foundation is not used below the front ends (it would cost every memoapp
/// start), so this is pthreads directly. The mutex and condition live in
/// memory of their own: pthread objects must not move.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
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
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every thread waiting in `wait(until:)`; call it holding the mutex
    /// after changing what they wait for.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Holding the mutex, waits until `isDone()` or the monotonic `deadline`;
    /// `nil` waits without a time limit. Returns `isDone()`'s last answer.
    func wait(until deadline: MonotonicTime?, _ isDone: () -> Bool) -> Bool {
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
struct MonotonicTime: Comparable, Sendable {
    var nanoseconds: UInt64

    static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    func adding(seconds: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: nanoseconds + UInt64(max(0, seconds) * 1e9))
    }

    /// Milliseconds from `earlier` to this reading.
    func milliseconds(since earlier: MonotonicTime) -> Double {
        nanoseconds >= earlier.nanoseconds ? Double(nanoseconds - earlier.nanoseconds) / 1e6 : 0
    }

    var asTimespec: timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
