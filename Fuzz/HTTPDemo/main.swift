// http-demo: an HTTPServer with a few routes, for measuring it from outside
// (wrk for requests per second, RSS with many event-stream subscribers, the
// time a stop takes). Not part of memoapp.
//
//     http-demo [ADDRESS] [THREADS]     default 127.0.0.1:8765, 4 threads
//
// Routes: GET / (a short text), GET /slow?ms=N (sleeps N ms first),
// GET /events (an event stream), POST /publish (publishes its body as an
// event), GET /stats (subscribers, RSS). It prints its address once
// listening, and stops gracefully on SIGINT or SIGTERM, printing how long the
// stop took.
#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoCore

let arguments = CommandLine.arguments
var configuration = ServerConfiguration()
do {
    configuration.address = try ListenAddress(parsing: arguments.count > 1 ? arguments[1] : "127.0.0.1:8765")
} catch {
    fputs("http-demo: \(error.message.en)\n", stderr)
    exit(64)
}
configuration.threadCount = arguments.count > 2 ? Int(arguments[2]) ?? 4 : 4
configuration.connectionLimit = 4096

let events = EventStream()
var router = Router()
router.route(.get, "/") { _ in .text("hello\n") }
router.route(.get, "/slow") { request in
    let milliseconds = min(Int(request.queryValue("ms") ?? "") ?? 100, 60_000)
    usleep(UInt32(milliseconds) * 1000)
    return .text("slept \(milliseconds) ms\n")
}
router.route(.get, "/events") { request in events.response(for: request) }
router.collect(.post, "/publish", bodyLimit: 64 * 1024) { _, body in
    let id = events.publish(data: String(decoding: body, as: UTF8.self))
    return .text("\(id)\n")
}
router.route(.get, "/stats") { _ in
    .text("subscribers \(events.subscriberCount)\nrss_kib \(residentKiB())\n")
}

/// This process's resident set, from /proc/self/status.
func residentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        if text.hasPrefix("VmRSS:") {
            return Int(text.filter { $0.isASCII && $0.isNumber }) ?? -1
        }
    }
    return -1
}

// SIGINT and SIGTERM are blocked before the server's threads start (they
// inherit the mask), so that sigwait below receives them.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &signals, nil)

let server = Server(configuration: configuration, router: router)
do {
    try server.start()
} catch {
    fputs("http-demo: \(error.message.en)\n", stderr)
    exit(1)
}
print("listening on \(server.boundAddress!)")
fflush(stdout)

var received: Int32 = 0
sigwait(&signals, &received)

var start = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
let unfinished = server.stop(gracePeriod: 5)
var end = timespec()
clock_gettime(CLOCK_MONOTONIC, &end)
let milliseconds = Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1e6
print("stopped in \(Int(milliseconds)) ms, \(unfinished) requests unfinished")
