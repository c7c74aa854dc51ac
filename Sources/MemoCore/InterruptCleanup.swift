#if canImport(Glibc)
import Glibc
#endif

/// The temporaries a process is writing, removed when Ctrl-C, SIGTERM or
/// SIGHUP ends it, so that an interrupted `export -o FILE` or `voice import`
/// leaves no hidden `.FILE.….part` or `.import-….part` behind.
///
/// Without this, such a leftover stays until the next write into the same
/// folder sweeps it (`TemporaryFile`'s lock rule, which still covers what
/// no handler can: SIGKILL, a crash, a power cut).
///
/// ## Why a fixed table
/// A signal handler may only make async-signal-safe calls: no allocation, no
/// lock, no Swift runtime work. So the paths live in one table, allocated
/// once by the first temporary (`slotCount` slots of `PATH_MAX` bytes), each
/// slot with a flag; the handler reads flags and paths and calls `unlink`,
/// nothing else. Threads that add and remove paths take a mutex among
/// themselves; the handler takes none. A handler that runs while a slot is
/// being changed may unlink the path that slot held a moment before, which is
/// a temporary of this very process, gone anyway once it dies. A process
/// writing more than `slotCount` temporaries at once leaves the extra ones to
/// the sweep.
public enum InterruptCleanup {
    /// The signals whose default action ends the process and that a person or
    /// a service manager sends to stop it.
    public static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Readies the handler (`prepare`) and installs it for `endingSignals`: what a
    /// front end whose commands end by those signals calls once at start,
    /// before any command installs handlers of its own (those save and put
    /// back this one). The handler removes the registered files, then lets
    /// the signal end the process as it would have.
    public static func installHandlers() {
        prepare()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signalNumber in
            InterruptCleanup.removeRegisteredFiles()
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signalNumber in endingSignals {
            // A signal ignored when the process started (nohup, a shell's
            // background job) stays ignored.
            var previous = sigaction()
            sigaction(signalNumber, nil, &previous)
            if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Readies what the handler reads (not the table itself, made by the
    /// first `register`, so a command that writes no temporary allocates
    /// none): what a handler that calls `removeRegisteredFiles` must have run
    /// before it is installed.
    public static func prepare() {
        _ = preparedTable
    }

    /// Removes every registered file. Async-signal-safe once `prepare` has
    /// run: what other handlers that end the process (the progress bar's)
    /// call before they do.
    public static func removeRegisteredFiles() {
        guard let table = preparedTable else { return }
        for slot in 0..<slotCount where table.flags[slot] != 0 {
            unlink(table.paths + slot * pathCapacity)
        }
    }

    /// Adds `path`, returning its slot for `unregister`, or nil when it is
    /// too long or every slot is taken.
    public static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity, !bytes.contains(0) else { return nil }
        let table = table
        return table.lock.locked {
            guard let slot = (0..<slotCount).first(where: { table.flags[$0] == 0 }) else { return nil }
            let start = table.paths + slot * pathCapacity
            bytes.withUnsafeBufferPointer { buffer in
                for (offset, byte) in buffer.enumerated() { start[offset] = CChar(bitPattern: byte) }
            }
            start[bytes.count] = 0
            table.flags[slot] = 1
            return slot
        }
    }

    /// Removes the slot `register` gave: its file was renamed into place or
    /// removed.
    public static func unregister(_ slot: Int) {
        precondition((0..<slotCount).contains(slot), "not a slot of the table")
        table.lock.locked { table.flags[slot] = 0 }
    }

    /// The paths registered now (for tests and diagnostics).
    public static var registeredPaths: [String] {
        table.lock.locked {
            (0..<slotCount).filter { table.flags[$0] != 0 }.map { String(cString: table.paths + $0 * pathCapacity) }
        }
    }

    // MARK: - Private

    static let slotCount = 64
    static let pathCapacity = Int(PATH_MAX)

    private final class Table: @unchecked Sendable {
        let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * pathCapacity)
        let flags = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: slotCount)
        let lock = Monitor()

        init() { flags.initialize(repeating: 0, count: slotCount) }
    }

    /// Made by the first `register` (or `registeredPaths`), never inside a
    /// handler, which reads `preparedTable` only.
    private static let table: Table = {
        let made = Table()
        preparedTable = made
        return made
    }()

    /// The table once made, nil before, read by the handler. `prepare`
    /// touches it first, since the first use of a global takes a lock.
    private nonisolated(unsafe) static var preparedTable: Table?
}
