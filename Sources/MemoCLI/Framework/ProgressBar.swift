import CommandLineKit
import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on stderr for long work: only when stderr is a terminal and
/// not --json (piped output stays byte for byte what it was), only once the
/// work has taken a second, at most ten frames a second (see
/// `ProgressSchedule`), as wide as the terminal is at each frame (see
/// `ProgressLine`). The line is erased and the cursor shown again when the
/// work ends, fails, or is stopped by Ctrl-C or SIGTERM, and while the
/// process is stopped by Ctrl-Z (see `ProgressBarSignals`).
///
/// The work itself only calls `update(_:of:)`: the modules doing it take a
/// plain `(done, total)` callback and know nothing of terminals.
final class ProgressBar {
    private let label: String
    private let descriptor: Int32
    private let isEnabled: Bool
    private var schedule: ProgressSchedule
    private var isShown = false
    /// Columns the line on screen takes (0: none yet).
    private var drawnWidth = 0
    private var signals = ProgressBarSignals()
    /// The first draw the terminal refused; nothing is drawn after it.
    private var failure: StreamWriteFailure?

    /// - Parameters:
    ///   - label: what is shown after the figure, such as a file's name; shown
    ///     on one line with its control characters made visible.
    ///   - descriptor: where stderr really is (see `CodecWarnings.silenced`).
    init(context: CommandContext, label: String, descriptor: Int32 = STDERR_FILENO) {
        self.label = label
        self.descriptor = descriptor
        // Asked of the descriptor itself: fd 2 may point at /dev/null meanwhile.
        isEnabled = isatty(descriptor) == 1 && !context.isJSON
        schedule = ProgressSchedule(start: ProgressBar.monotonicSeconds())
    }

    /// Runs `work`, which calls `update`, and clears the bar after it. A
    /// failure of `work` is thrown as it is; when `work` succeeds but drawing
    /// failed, that failed write is thrown, as for any output.
    @discardableResult
    func showing<Result>(_ work: () throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try work()
        } catch {
            clear()
            throw error
        }
        clear()
        if let failure { throw failure }
        return result
    }

    func update(_ done: Int64, of total: Int64) {
        guard isEnabled, failure == nil else { return }
        let descriptor = self.descriptor
        var columns = 0
        guard let line = schedule.frame(done: done, of: total, label: label, now: ProgressBar.monotonicSeconds,
                                        columns: { columns = ProgressBar.columns(of: descriptor); return columns })
        else { return }
        // After Ctrl-Z and fg the bar was erased, and the cursor is wherever
        // the shell left it: draw from that line's start.
        if signals.takeWasStopped() { drawnWidth = 0 }
        // One write a frame; the first also hides the cursor, which would
        // otherwise blink at the end of the bar.
        var frame = TerminalText()
        if !isShown {
            isShown = true
            signals.install(descriptor: descriptor)
            frame = TerminalText(.hideCursor)
        }
        draw(frame + ProgressLine.returnToStart(drawnWidth: drawnWidth, columns: columns) + line)
        drawnWidth = line.displayWidth
    }

    func update(_ done: Int, of total: Int) {
        update(Int64(done), of: Int64(total))
    }

    /// Removes the bar, if it was shown, and shows the cursor again.
    func clear() {
        guard isShown else { return }
        isShown = false
        draw(ProgressLine.returnToStart(drawnWidth: drawnWidth, columns: ProgressBar.columns(of: descriptor))
             + TerminalText(.showCursor))
        drawnWidth = 0
        signals.restore()
    }

    // MARK: - Private

    private func draw(_ text: TerminalText) {
        guard failure == nil else { return }
        do {
            try ProcessStreams.write(text.rendered, to: descriptor, stream: .error)
        } catch let refused as StreamWriteFailure {
            failure = refused
        } catch {}
    }

    /// The terminal's width now (80 when it cannot be told).
    private static func columns(of descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    static func monotonicSeconds() -> Double {
        MonotonicTime.now().seconds
    }
}
