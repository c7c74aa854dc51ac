#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// The threads that run route handlers, apart from libmicrohttpd's polling
/// threads, shared fairly among clients.
///
/// libmicrohttpd ties each connection to the polling thread that accepted
/// it, and a handler run on that thread held up every connection of the
/// thread for as long as it ran: six clients asking for the doctor's
/// examination at once made the health check wait 0.9 to 1.6 s (issue 29,
/// finding 5). So a request's work is handed here, its connection
/// suspended meanwhile, and the polling threads only read and write
/// sockets, and answer the routes marked quick (the health check) at once,
/// whatever the handlers are doing.
///
/// A handler that takes long holds one of these threads, so one client
/// sending many slow requests took them all, and every other client's
/// requests queued behind its (issue 29). Each job therefore belongs to a
/// client (`ServerConfiguration.clientIdentity`), which runs at most
/// `perClient` jobs at once, and a thread that frees up serves the clients
/// with jobs waiting in turn, one job each, in the order each sent them.
/// With the default of all threads but one per client, a client alone
/// still has most of the pool, and another client always finds a thread
/// within one handler's time.
///
/// Shares alone do not bound what a few clients take together: two
/// credentials (the owner's phone and a script, or two tokens in one
/// hostile hand) held three threads and one, and the owner's web page
/// waited behind their uploads for seconds. Telling the owner apart from
/// other clients cannot be done before the credential is checked, and
/// every valid credential is the owner's anyway; what can be told before a
/// job runs is what kind of work it is. Most requests are a few indexed
/// reads or one small write (milliseconds); a few kinds take time in
/// proportion to what they carry or read (an upload's file, an export, the
/// doctor's examination, a sync push or pull), and their routes say so
/// (`Route.isSlow`). So slow jobs, whoever sends them, run on at most
/// `slowLimit` threads at once (by default all but one): the rest is a
/// reserve that only quick jobs take, where any client's short request
/// finds a thread within a few quick jobs' time (one per client waiting,
/// in turn), however many slow ones are queued. A slow job past the limit
/// waits, and its client's later jobs behind it (a client's jobs run in
/// the order it sent them); other clients' quick jobs go by.
final class HandlerPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void
    /// Jobs one client may run at once.
    let perClient: Int
    /// Slow jobs all clients together may run at once.
    let slowLimit: Int
    private let monitor = Monitor()
    /// Each client's waiting jobs, oldest first; only clients with jobs
    /// waiting have one. A job taken is removed at once (nil), since what it
    /// holds (a request's context, an export's stream) must go with it.
    private var waiting: [String: ClientQueue] = [:]
    /// The clients with jobs waiting, in the order their turns come.
    private var turns: [String] = []
    private var runningPerClient: [String: Int] = [:]
    private var waitingCount = 0
    private var runningCount = 0
    private var runningSlowCount = 0
    /// Places taken by `reserve` whose jobs are not submitted yet.
    private var reservedCount = 0
    /// Set by `closeAndWaitUntilIdle`: `reserve` refuses from then on.
    private var closed = false
    private var isStopping = false
    private var threads: [pthread_t] = []

    init(threadCount: Int, perClient: Int, slowLimit: Int) {
        self.perClient = perClient
        self.slowLimit = slowLimit
        for _ in 0..<threadCount {
            threads.append(startJoinableThread { [self] in work() })
        }
    }

    /// Runs `job` for `client` on one of the threads, after the client's
    /// jobs before it; an `isSlow` job only while fewer than `slowLimit`
    /// slow jobs run.
    /// `reserved` when the caller took a place with `reserve` for it.
    func submit(for client: String, isSlow: Bool = false, reserved: Bool = false, _ job: @escaping Job) {
        let entry = Entry(job: job, isSlow: isSlow)
        monitor.locked {
            if reserved { reservedCount -= 1 }
            if let queue = waiting[client] {
                queue.append(entry)
            } else {
                waiting[client] = ClientQueue(entry)
                turns.append(client)
            }
            waitingCount += 1
            monitor.broadcast()
        }
    }

    /// Takes a place for a job about to be submitted, or false once the
    /// pool is closed.
    ///
    /// The server suspends a request's connection before it submits the
    /// request's job (its resume must come after), and libmicrohttpd aborts
    /// the whole process when it is stopped with a connection suspended
    /// (MHD_PANIC, "MHD_stop_daemon() called while we have suspended
    /// connections", in 0.9.75's daemon.c). A request still in flight when a
    /// stop's grace period ends could reach its end between the stop's
    /// wait for idle handlers and MHD_stop_daemon, or on a polling thread's
    /// last turn inside MHD_stop_daemon itself, and be suspended with no
    /// job left to resume it. Taking the place first, under the same lock
    /// the close takes, leaves no such moment: a job whose place was taken
    /// before the close is waited for, and none is begun after it.
    func reserve() -> Bool {
        monitor.locked {
            guard !closed else { return false }
            reservedCount += 1
            return true
        }
    }

    /// Whether `closeAndWaitUntilIdle` has begun.
    var isClosed: Bool {
        monitor.locked { closed }
    }

    /// Refuses new work (`reserve`), then waits until every job reserved or
    /// submitted has run (a stop lets the handlers running finish, as
    /// libmicrohttpd's own threads did).
    func closeAndWaitUntilIdle() {
        monitor.locked {
            closed = true
            _ = monitor.wait(until: nil) { waitingCount == 0 && runningCount == 0 && reservedCount == 0 }
        }
    }

    /// Ends the threads once no job waits, and joins them.
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
        while let (client, entry) = next() {
            entry.job()
            monitor.locked {
                runningCount -= 1
                if entry.isSlow { runningSlowCount -= 1 }
                let count = runningPerClient[client, default: 1] - 1
                runningPerClient[client] = count == 0 ? nil : count
                monitor.broadcast()
            }
        }
    }

    /// The next job: the oldest of the first client in turn that runs fewer
    /// than `perClient` and whose oldest job is quick or finds the slow jobs
    /// under their limit; nil once stopping with none waiting.
    private func next() -> (String, Entry)? {
        monitor.locked {
            var turn: Int?
            _ = monitor.wait(until: nil) {
                let slowMayRun = runningSlowCount < slowLimit
                turn = turns.firstIndex {
                    runningPerClient[$0, default: 0] < perClient && (slowMayRun || !waiting[$0]!.firstIsSlow)
                }
                return turn != nil || (isStopping && waitingCount == 0)
            }
            guard let turn else { return nil }
            let client = turns.remove(at: turn)
            let queue = waiting[client]!
            let job = queue.removeFirst()
            if job.isSlow { runningSlowCount += 1 }
            if queue.isEmpty {
                waiting[client] = nil
            } else {
                turns.append(client)
            }
            waitingCount -= 1
            runningCount += 1
            runningPerClient[client, default: 0] += 1
            return (client, job)
        }
    }

    /// A job and whether its route said it is slow.
    private struct Entry {
        let job: Job
        let isSlow: Bool
    }

    /// One client's waiting jobs.
    private final class ClientQueue {
        private var jobs: [Entry?]
        private var head = 0

        init(_ job: Entry) {
            jobs = [job]
        }

        var isEmpty: Bool { head == jobs.count }

        /// Whether the job that runs next is slow (false when none waits).
        var firstIsSlow: Bool { head < jobs.count && jobs[head]!.isSlow }

        func append(_ job: Entry) {
            jobs.append(job)
        }

        func removeFirst() -> Entry {
            let job = jobs[head]!
            jobs[head] = nil
            head += 1
            // Drop what has run once it is most of the array.
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
