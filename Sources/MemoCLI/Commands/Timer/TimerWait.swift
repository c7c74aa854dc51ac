import CommandLineKit
import MemoAPI
import MemoCore
import Timers
#if canImport(Glibc)
import Glibc
#endif

/// `memoapp timer wait [ID]`: blocks until a countdown ends.
///
/// It sleeps on the kernel's boot clock to an absolute deadline (no polling
/// loop): to the countdown's end when that is near, else to the next check,
/// at which it reads the row again to notice a pause, resume or cancel by
/// another process. Reading holds no lock, so any number of waits coexist.
enum TimerWait {
    /// How often the row is read again (and, on a terminal, the line redrawn).
    static let checkInterval = 0.25

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try TimerCommand.store(context)
        // The id is read once, then the timer is followed by its uid: a
        // restore meanwhile may give this id to another timer.
        let uid = try arguments[TimerCommand.optionalID].map { try store.snapshot(ofTimer: $0).timer.uid }
            ?? store.newestRunning(kind: .countdown).timer.uid
        let line = context.isOutputTerminal && !context.isJSON ? LiveLine(context) : nil
        WaitSignals.install()
        defer {
            try? line?.close()
            WaitSignals.uninstall()
        }
        var hasWaited = false
        while true {
            if WaitSignals.caught != 0 {
                try line?.close()
                try reportInterrupted(store: store, uid: uid, context)
                return
            }
            // Read-only: finishing is saved by the next command that writes, so
            // that nothing stands between the end and this process's exit.
            let snapshot = try store.snapshot(ofTimerWithUID: uid, persistingSettlement: false)
            switch try snapshot.timer.nextWaitStep(at: snapshot.reading, checkInterval: checkInterval) {
            case let .finished(at: end):
                try line?.close()
                let name = TimerRendering.name(snapshot.timer)
                let time = TimerRendering.localTime(end, now: snapshot.reading.wall)
                let bell = line != nil && hasWaited ? TerminalText(.bell) + "🔔 " : TerminalText()
                try context.emit(json: WireFormat.timer(snapshot),
                                 text: bell + context.text(en: "Timer \(name) finished at \(time).",
                                                           ko: "타이머 \(name)이(가) \(time)에 끝났습니다."))
                return
            case .abandoned:
                let name = TimerRendering.name(snapshot.timer).plain
                throw hasWaited
                    ? MemoError(.invalidState, en: "Timer \(name) was cancelled while waiting.",
                                ko: "기다리는 동안 타이머 \(name)이(가) 취소되었습니다.")
                    : MemoError(.invalidState, en: "Timer \(name) is cancelled; there is no end to wait for.",
                                ko: "타이머 \(name)은(는) 취소되어 기다릴 끝이 없습니다.")
            case let .sleep(untilBoot: deadline, isEnd: _):
                try line?.draw(snapshot)
                hasWaited = true
                sleep(untilBoot: deadline)
            }
        }
    }

    /// Sleeps until `deadline` on CLOCK_BOOTTIME, the clock the readings'
    /// `boot` figures come from. Returns early when a signal arrives.
    static func sleep(untilBoot deadline: Double) {
        // A deadline from damaged figures (infinite, not a number) is never
        // more than a check away: the loop reads the timer again.
        let now = SystemTimerClock.seconds(on: CLOCK_BOOTTIME)
        let deadline = deadline.isNaN ? now : min(max(deadline, 0), now + checkInterval)
        let whole = deadline.rounded(.down)
        var target = timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int((deadline - whole) * 1e9)))
        let status = clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &target, nil)
        if status == EINVAL || status == ENOTSUP {
            // A kernel without absolute sleeps on the boot clock: sleep the
            // same span on the monotonic clock.
            let span = max(0, deadline - SystemTimerClock.seconds(on: CLOCK_BOOTTIME))
            let spanWhole = span.rounded(.down)
            var request = timespec(tv_sec: Int(spanWhole), tv_nsec: Int((span - spanWhole) * 1e9))
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &request, nil)
        }
    }

    /// Ctrl-C: the timer keeps running; say so and exit 128 + the signal.
    private static func reportInterrupted(store: TimerStore, uid: String, _ context: CommandContext) throws {
        let signalNumber = WaitSignals.caught
        context.exitStatus = 128 + signalNumber
        let snapshot = try? store.snapshot(ofTimerWithUID: uid, persistingSettlement: false)
        let figure = snapshot.map { " (" + TimerRendering.mainFigure($0, context) + ")" } ?? ""
        let id = snapshot.map { String($0.timer.id) } ?? uid
        let message = context.text(en: "stopped waiting; timer \(id) keeps running\(figure)",
                                   ko: "기다리기를 멈췄습니다. 타이머 \(id)은(는) 계속 갑니다\(figure)")
        try context.warn(message, as: .interrupted)
    }
}

/// The countdown line redrawn in place on a terminal.
private final class LiveLine {
    private let context: CommandContext
    private var isOpen = false

    init(_ context: CommandContext) {
        self.context = context
    }

    /// `⏳ 3 (tea)  [██████░░░░░░]  12:13 left`, fitted to the terminal's width.
    func draw(_ snapshot: TimerSnapshot) throws {
        if !isOpen {
            try context.flush()
            isOpen = true
            try context.write(TerminalText(.hideCursor))  // while redrawing
        }
        let timer = snapshot.timer
        let duration = timer.duration ?? 1
        let fraction = min(1, max(0, snapshot.elapsed.seconds / duration))
        let icon = timer.state == .paused ? "⏸" : "⏳"
        var status = TimerRendering.mainFigure(snapshot, context)
        if timer.state == .paused { status += context.text(en: " · paused", ko: " · 일시정지됨") }
        let width = max(20, (context.terminalWidth ?? 80) - 1)
        // Cut as shown: a control character in a label takes the room of its
        // visible form, and the line must never wrap.
        var name = TimerRendering.name(timer).plain
        // The icon counts as two columns: terminals disagree on emoji widths,
        // and a line that wraps can no longer be redrawn in place.
        let fixed = 2 + 1 + 2 + 2 + 2 + TerminalText.displayWidth(status)
        let barWidth = max(5, min(40, width - fixed - TerminalText.displayWidth(name)))
        while TerminalText.displayWidth(name) > max(1, width - fixed - barWidth), !name.isEmpty { name.removeLast() }
        // A fraction from damaged figures (not a number) draws an empty bar.
        let filled = fraction.isNaN ? 0 : Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let text: TerminalText = "\(icon) \(line: name)  [\(context.style.cyan(bar))]  \(status)"
        try context.write(TerminalText(.carriageReturn) + TerminalText(.clearLine) + text)
        try context.flush()
    }

    /// Clears the line and shows the cursor again; safe to call twice.
    func close() throws {
        guard isOpen else { return }
        isOpen = false
        try context.write(TerminalText(.carriageReturn) + TerminalText(.clearLine) + TerminalText(.showCursor))
        try context.flush()
    }
}

/// Which signal interrupted the wait (0: none). Set by the handler, read by the loop.
private nonisolated(unsafe) var caughtSignal: Int32 = 0

/// SIGINT, SIGTERM and SIGHUP interrupt the sleep (no SA_RESTART) and are
/// noted, so the loop can restore the terminal and exit in order.
private enum WaitSignals {
    static let handled = [SIGINT, SIGTERM, SIGHUP]

    static var caught: Int32 { caughtSignal }

    static func install() {
        for signalNumber in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { caughtSignal = $0 }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
    }

    static func uninstall() {
        for signalNumber in handled { signal(signalNumber, SIG_DFL) }
    }
}
