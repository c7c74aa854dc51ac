#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A thread that does one step, then sleeps until the time the step asked
/// for, a `poke` or `stop`, and does the step again: the shape of every
/// alarm that must ring at a moment nobody asks about (the server's
/// `timer.finished`, `memoapp remind`). No polling: a step that has nothing
/// ahead returns nil and the thread sleeps until poked.
public final class WakeLoop: @unchecked Sendable {
    /// One look: returns the seconds until the next look is due (nil: none
    /// is, until something changes). A throwing step is tried again after
    /// `retryDelay` (a busy database, a full disk).
    public typealias Step = () throws -> Double?

    private let monitor = Monitor()
    private var isStopped = false
    private var isPoked = false
    private var thread: HelperThread?
    private let retryDelay: Double
    private let pokeSpacing: Double

    /// `pokeSpacing` (seconds, 0 to 60): a poke that comes sooner than this
    /// after the last look began waits out the rest of it, so that a burst
    /// of pokes (a change per write, thousands a second) costs one look per
    /// spacing rather than one per poke. It never delays the look a step
    /// asked for: a countdown's end is looked at on time.
    public init(retryDelay: Double = 1, pokeSpacing: Double = 0) {
        precondition((0...60).contains(pokeSpacing), "pokeSpacing out of range")
        self.retryDelay = retryDelay
        self.pokeSpacing = pokeSpacing
    }

    /// Starts the thread, which runs `step` at once and then as asked.
    public func start(_ step: @escaping Step) {
        let box = StepBox(step)
        thread = HelperThread { [self] in run(box.step) }
    }

    /// Look again now: something changed.
    public func poke() {
        monitor.locked {
            // Already poked: the look it owes will see this change too, and
            // waking the thread again (a futex call per write) would cost
            // what the spacing saves.
            guard !isPoked else { return }
            isPoked = true
            monitor.broadcast()
        }
    }

    /// Ends the thread after its current step and waits for it.
    public func stop() {
        monitor.locked {
            isStopped = true
            monitor.broadcast()
        }
        thread?.join()
        thread = nil
    }

    // MARK: - Private

    /// Carries the step to the thread (it is used there alone).
    private final class StepBox: @unchecked Sendable {
        let step: Step
        init(_ step: @escaping Step) { self.step = step }
    }

    private func run(_ step: Step) {
        while true {
            if monitor.locked({ isStopped }) { return }
            let lookStarted = WakeLoop.monotonicSeconds()
            let wait: Double?
            do { wait = try step() } catch { wait = retryDelay }
            let due = wait.map { WakeLoop.monotonicSeconds() + $0 }
            let shouldStop = monitor.locked { () -> Bool in
                if let wait {
                    // An early (spurious) wake-up costs one extra look, no more.
                    if !isStopped && !isPoked { monitor.wait(seconds: wait) }
                } else {
                    // Nothing ahead: only a poke or stop may wake it.
                    while !isStopped && !isPoked { monitor.wait(seconds: nil) }
                }
                if isPoked { waitOutPokeSpacing(lookStarted: lookStarted, due: due) }
                isPoked = false
                return isStopped
            }
            if shouldStop { return }
        }
    }

    /// Holding the monitor, after a poke: waits until `pokeSpacing` has
    /// passed since the last look began (later pokes join this one), or
    /// until the look the step asked for is `due`, or a stop.
    private func waitOutPokeSpacing(lookStarted: Double, due: Double?) {
        guard pokeSpacing > 0 else { return }
        let end = min(lookStarted + pokeSpacing, due ?? .infinity)
        while !isStopped {
            let rest = end - WakeLoop.monotonicSeconds()
            if rest <= 0 { return }
            monitor.wait(seconds: rest)
        }
    }

    private static func monotonicSeconds() -> Double {
        MonotonicTime.now().seconds
    }
}
