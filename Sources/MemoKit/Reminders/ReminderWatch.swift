import MemoCore

/// `memoapp remind`'s engine: one thread that looks at the database, tells
/// what came due, and sleeps until the next event's moment; inotify on the
/// data home (`DataHomeWatcher`) wakes it early when anyone writes. No
/// polling: between events it costs no CPU (see `ReminderSchedule.longestSleep`
/// for the one exception).
///
/// The workspace is used by the watch's thread alone from `start` to `stop`.
public final class ReminderWatch: @unchecked Sendable {
    /// Tells the user of one event; a throw stops nothing (the event is
    /// recorded as told before it is told, so it is not told twice).
    public typealias Teller = (DueReminder) throws -> Void

    private let workspace: Workspace
    private let ledger: ReminderLedger
    private let tell: Teller
    private let loop = WakeLoop()
    private var watcher: DataHomeWatcher?

    public init(workspace: Workspace, tell: @escaping Teller) {
        self.workspace = workspace
        self.ledger = ReminderLedger(workspace: workspace)
        self.tell = tell
    }

    /// Starts watching the data home and the thread, which looks at once
    /// (telling what was missed while no watcher ran).
    /// - Throws: `.storage` when inotify cannot watch the data home.
    public func start() throws {
        let watcher: DataHomeWatcher
        do {
            watcher = try DataHomeWatcher(directory: workspace.home.path)
        } catch {
            throw MemoError(.storage, en: "cannot watch the data home for changes: \(error)",
                            ko: "데이터 폴더의 변경을 지켜볼 수 없습니다: \(error)")
        }
        self.watcher = watcher
        loop.start { [self] in try look() }
        watcher.start { [loop] in loop.poke() }
    }

    /// Stops both threads and waits for them (a teller running finishes first).
    public func stop() {
        watcher?.stop()
        watcher = nil
        loop.stop()
    }

    /// One look at the workspace's clock: tells every event due and not yet
    /// told, and returns the seconds to sleep before the next look.
    @discardableResult
    public func look() throws -> Double {
        let now = workspace.clock.now()
        let plan = ReminderSchedule.plan(candidates: try ledger.candidates(at: now), told: try ledger.told(at: now), now: now)
        for reminder in plan.due where try ledger.claim(reminder.event, at: now) {
            try? tell(reminder)
        }
        return plan.sleep(from: now)
    }
}
