#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import MemoCore

/// Hands the heap memory a burst of requests freed back to the system once
/// the server has been quiet for a moment (glibc's `malloc_trim(0)`).
///
/// Freed memory stays with glibc's allocator: in the arena that served it
/// (each thread picks one, up to eight per core), kept for the next
/// allocation, and given back only when it lies at an arena's very top.
/// Requests allocate on many threads (the polling threads, the handlers,
/// an export's writer), so after a burst much free memory lies between
/// chunks still in use and stays resident. Under `scripts/torture` part 11,
/// heaptrack found 3.8 KB of 20.8 million allocations never freed (Swift's
/// metadata caches) while RSS rose from 34.0 to 41.8 MB over ten rounds;
/// malloc_info showed 4.4 MB in use in 23.8 MB held, and one
/// `malloc_trim(0)` brought RSS to 32.4 MB. `malloc_trim` gives back the
/// free pages of every arena, not only their tops, but walks them all with
/// each one locked, so it runs once per quiet spell: after `delay` seconds
/// in which no request began or ended, and only when some did since the
/// last trim.
final class IdleMemoryTrim: @unchecked Sendable {
    private let delay: Double
    private let monitor = Monitor()
    /// Requests begun or ended so far, and their count at the last trim.
    private var activity: UInt64 = 0
    private var activityAtLastTrim: UInt64 = 0
    private var lastActivity = MonotonicTime.now()
    /// The thread sleeps with no deadline, to be woken by the next request.
    private var isWaitingForActivity = false
    private var isStopping = false
    private var trims = 0
    private var thread: pthread_t?

    init(delay: Double) {
        self.delay = delay
    }

    func start() {
        thread = startJoinableThread { [self] in run() }
    }

    /// A request began or ended.
    func noteActivity() {
        monitor.locked {
            activity &+= 1
            lastActivity = .now()
            if isWaitingForActivity { monitor.broadcast() }
        }
    }

    func stop() {
        monitor.locked {
            isStopping = true
            monitor.broadcast()
        }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    /// Trims done so far (for tests).
    var trimCount: Int {
        monitor.locked { trims }
    }

    // MARK: - Private

    private func run() {
        while let isQuiet = nextLook() {
            guard isQuiet else { continue }
            malloc_trim(0)
            monitor.locked { trims += 1 }
        }
    }

    /// Waits for the next moment to look: true when the server has been
    /// quiet for `delay` since requests came, false to look again, nil when
    /// stopping.
    private func nextLook() -> Bool? {
        monitor.locked { () -> Bool? in
            guard !isStopping else { return nil }
            if activity == activityAtLastTrim {
                isWaitingForActivity = true
                monitor.wait(seconds: nil)
                isWaitingForActivity = false
                return false
            }
            let quietFrom = lastActivity.adding(seconds: delay)
            if MonotonicTime.now() < quietFrom {
                // Requests meanwhile do not wake it: it looks again then.
                _ = monitor.wait(until: quietFrom) { isStopping }
                return false
            }
            activityAtLastTrim = activity
            return true
        }
    }
}
