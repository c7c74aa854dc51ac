#if canImport(Glibc)
import Glibc
#endif

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

    /// Waits for the thread to end. Called on the thread itself (the last
    /// reference to what owns it dropped there, its deinit joining), it
    /// cannot wait for itself: pthread_join would fail with EDEADLK and the
    /// thread's stack would never be given back, so it is detached instead
    /// and goes when it returns.
    public func join() {
        if pthread_equal(pthread_self(), thread) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }
}
