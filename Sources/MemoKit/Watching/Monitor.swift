#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable on the monotonic clock, for the few
/// helper threads (the data home watcher, the server's timer alarm, the
/// reminder watcher) that sleep until told or until a deadline, never polling.
public final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
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

    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Holding the mutex: wakes the waiting threads.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Holding the mutex: waits to be woken, or until `seconds` pass (nil:
    /// no limit). Spurious wake-ups happen; callers re-check their state.
    public func wait(seconds: Double?) {
        guard let seconds else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + max(0, min(seconds, 365 * 86400))
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        pthread_cond_timedwait(condition, mutex, &deadline)
    }
}

/// Runs `body` on a new thread of its own, joined by `join`.
public final class HelperThread: @unchecked Sendable {
    private var thread = pthread_t()

    public init(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, box)
        precondition(created == 0, "cannot start a thread (error \(created))")
    }

    public func join() {
        pthread_join(thread, nil)
    }
}
