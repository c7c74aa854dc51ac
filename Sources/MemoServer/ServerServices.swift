#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoCore
import MemoKit
import SQLite

/// What every route shares for as long as the server runs: the data home,
/// its database as a pool (one writer, WAL readers for the other threads),
/// the clock, and the state kept across requests.
final class ServerServices: @unchecked Sendable {
    let home: DataHome
    let pool: DatabasePool
    // A clock reads the time and holds nothing a thread could change.
    let clock: WallClock
    let throttle = AuthenticationThrottle()
    let idempotency = IdempotencyCache()
    /// Exports sent at once (`GET /api/v1/export`): four.
    let exportSlots = ExportSlots(limit: 4)
    /// The `Host` values a request on loopback may name: `localhost`,
    /// `127.0.0.1` and `[::1]` with the port the server listens on (and
    /// alone on port 80). Known once it has started (port 0 asks the
    /// system); made once so that the check per request compares strings
    /// instead of building them.
    let loopbackHosts = LockedValue<[String]?>(nil)
    /// Whether the listen address is a loopback one (the Host check applies).
    let isLoopback: Bool
    /// The most bytes an audio upload may have.
    let maximumUpload: UInt64

    init(home: DataHome, pool: DatabasePool, clock: WallClock, isLoopback: Bool, maximumUpload: UInt64) {
        self.home = home
        self.pool = pool
        self.clock = clock
        self.isLoopback = isLoopback
        self.maximumUpload = maximumUpload
    }

    /// Runs `body` on a reader: a snapshot of the last commit, beside other
    /// readers and the writer. Inside `withRequestReads`, every read until
    /// the first write shares one read transaction.
    func read<T>(_ body: (Workspace) throws -> T) throws -> T {
        guard let reads = RequestReads.current else {
            return try pool.read { connection in try body(Workspace(home: home, connection: connection, clock: clock)) }
        }
        return try reads.lease(from: pool).read { connection in
            try body(Workspace(home: home, connection: connection, clock: clock))
        }
    }

    /// Runs one request's work (the access hook's checks and its route) on
    /// this thread with one read transaction for all its reads, taken at
    /// the first and ended at the first write, at `endRequestReads`, or
    /// when `body` returns: the hook's credential and gate and the route's
    /// item were three transactions, each with its `BEGIN`, snapshot and
    /// `COMMIT` and its locks on the WAL index, a fifth of a `GET
    /// /todos/{id}` under perf.
    func withRequestReads<T>(_ body: () throws -> T) rethrows -> T {
        let reads = RequestReads()
        RequestReads.current = reads
        defer {
            RequestReads.current = nil
            reads.end()
        }
        return try body()
    }

    /// Ends this request's shared read transaction, if it has one: before
    /// a write (what follows must see it) and before work that runs long
    /// on a connection of its own (a snapshot held that long keeps the WAL
    /// from being reset). A later read starts a new one.
    func endRequestReads() {
        RequestReads.current?.end()
    }

    /// The one other origin whose pages may call the API (CORS), or nil.
    var allowedOrigin: String?

    /// Whether the server speaks HTTPS (the session cookie is then `Secure`).
    var usesTLS = false

    /// Told after each commit of `write` (the event feed looks at once
    /// instead of waiting for inotify). Set before the server starts.
    var afterCommit: (@Sendable () -> Void)?

    /// Runs `body` in one write transaction (committed when it returns).
    func write<T>(_ body: (Workspace) throws -> T) throws -> T {
        endRequestReads()
        let result = try pool.write { connection in try body(Workspace(home: home, connection: connection, clock: clock)) }
        afterCommit?()
        return result
    }
}

/// The read transaction one request's work shares (`withRequestReads`),
/// known to the thread doing that work; and the undo step its change
/// recorded, which the answer names (`Undo-Step`).
final class RequestReads {
    private var held: ReaderLease?
    /// The undo history's step of the change the request made, if any.
    var undoStep: Int64?

    /// The lease, taken at the first read (a route that reads nothing takes none).
    func lease(from pool: DatabasePool) throws -> ReaderLease {
        if let held, held.isHeld { return held }
        let lease = try pool.leaseReader()
        held = lease
        return lease
    }

    func end() {
        held?.end()
        held = nil
    }

    /// The request work running on this thread, if any.
    static var current: RequestReads? {
        get { pthread_getspecific(key).map { Unmanaged<RequestReads>.fromOpaque($0).takeUnretainedValue() } }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<RequestReads>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()
}

/// A value many threads read and write under a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = Monitor()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    var current: Value {
        lock.locked { value }
    }

    func set(_ newValue: Value) {
        lock.locked { value = newValue }
    }

    func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.locked { try body(&value) }
    }
}
