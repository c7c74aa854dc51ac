#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// The threads that run route handlers, apart from libmicrohttpd's polling
/// threads.
///
/// libmicrohttpd ties each connection to the polling thread that accepted
/// it, and a handler run on that thread held up every connection of the
/// thread for as long as it ran: six clients asking for the doctor's
/// examination at once made the health check wait 0.9 to 1.6 s (issue 29,
/// finding 5). So a request's work is handed here, its connection
/// suspended meanwhile, and the polling threads only read and write
/// sockets, and answer the routes marked quick (the health check) at once,
/// whatever the handlers are doing. Work runs in the order it came; a
/// handler that takes long holds one of these threads, not a connection's
/// polling thread.
final class HandlerPool: @unchecked Sendable {
    private let monitor = Monitor()
    /// Jobs in order; one taken is removed at once (nil), since what it
    /// holds (a request's context, an export's stream) must go with it.
    private var queue: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var running = 0
    private var isStopping = false
    private var threads: [pthread_t] = []

    init(threadCount: Int) {
        for _ in 0..<threadCount {
            threads.append(startJoinableThread { [self] in work() })
        }
    }

    /// Runs `job` on one of the threads, after the jobs before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        monitor.locked {
            queue.append(job)
            monitor.broadcast()
        }
    }

    /// Waits until every job submitted has run (a stop lets the handlers
    /// running finish, as libmicrohttpd's own threads did).
    func waitUntilIdle() {
        monitor.locked { _ = monitor.wait(until: nil) { head == queue.count && running == 0 } }
    }

    /// Ends the threads once the queue is empty, and joins them.
    func stop() {
        monitor.locked {
            isStopping = true
            monitor.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    // MARK: - Private

    private func work() {
        while let job = next() {
            job()
            monitor.locked {
                running -= 1
                monitor.broadcast()
            }
        }
    }

    private func next() -> (@Sendable () -> Void)? {
        monitor.locked {
            _ = monitor.wait(until: nil) { head < queue.count || isStopping }
            guard head < queue.count else { return nil }
            let job = queue[head]
            queue[head] = nil
            head += 1
            running += 1
            // Drop what has run once it is most of the array.
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
