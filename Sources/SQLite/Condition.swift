#if canImport(Glibc)
import Glibc
#endif

/// A mutex and its condition variable (POSIX threads): the lock `DatabasePool`
/// keeps its state under, and the wait for a connection to come free. Kept
/// in allocated memory, as pthread objects must not move.
final class Condition {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Releases the mutex until another thread calls `broadcast`, then takes it
    /// again. Call inside `withLock`, in a loop that checks what it waits for
    /// (a wait may end without a broadcast).
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiting thread.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
