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

    public init(retryDelay: Double = 1) {
        self.retryDelay = retryDelay
    }

    /// Starts the thread, which runs `step` at once and then as asked.
    public func start(_ step: @escaping Step) {
        let box = StepBox(step)
        thread = HelperThread { [self] in run(box.step) }
    }

    /// Look again now: something changed.
    public func poke() {
        monitor.locked {
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
            let wait: Double?
            do { wait = try step() } catch { wait = retryDelay }
            let shouldStop = monitor.locked { () -> Bool in
                if let wait {
                    // An early (spurious) wake-up costs one extra look, no more.
                    if !isStopped && !isPoked { monitor.wait(seconds: wait) }
                } else {
                    // Nothing ahead: only a poke or stop may wake it.
                    while !isStopped && !isPoked { monitor.wait(seconds: nil) }
                }
                isPoked = false
                return isStopped
            }
            if shouldStop { return }
        }
    }
}
