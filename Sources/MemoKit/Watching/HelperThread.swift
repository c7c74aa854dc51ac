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

    public func join() {
        pthread_join(thread, nil)
    }
}
