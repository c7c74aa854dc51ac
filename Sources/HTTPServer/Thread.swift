#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a new detached thread: for the few long-lived helpers (an
/// event stream's heartbeat) that must not borrow a server thread.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    precondition(created == 0, "cannot start a thread (error \(created))")
    pthread_detach(thread)
}

/// Runs `body` on a new thread, to be joined (`pthread_join`) once it returns.
func startJoinableThread(_ body: @escaping () -> Void) -> pthread_t {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    precondition(created == 0, "cannot start a thread (error \(created))")
    return thread
}
