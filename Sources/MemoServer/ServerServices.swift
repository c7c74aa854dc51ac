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
    /// readers and the writer.
    func read<T>(_ body: (Workspace) throws -> T) throws -> T {
        try pool.read { connection in try body(Workspace(home: home, connection: connection, clock: clock)) }
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
        let result = try pool.write { connection in try body(Workspace(home: home, connection: connection, clock: clock)) }
        afterCommit?()
        return result
    }
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
