import CommandLineKit
import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on stderr: only on a terminal, only without --json, and
/// only once the work has taken a second, so quick work prints nothing.
final class ProgressBar {
    private let label: String
    private let descriptor: Int32
    private let isEnabled: Bool
    private let start = ProgressBar.monotonicSeconds()
    private var isShown = false
    private var lastDrawn = -1
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
    }

    /// Runs `work`, which calls `update`, and clears the bar after it. A
    /// failure of `work` is thrown as it is; when `work` succeeds but drawing
    /// failed, that failed write is thrown, as for any output.
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
        guard isEnabled, total > 0, ProgressBar.monotonicSeconds() - start >= 1 else { return }
        let percent = Int(min(100, max(0, done) * 100 / total))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        isShown = true
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        draw(TerminalText(.carriageReturn) + "\(bar) \(percent)% " + TerminalText(line: label)
             + TerminalText(.clearToEndOfLine))
    }

    /// Removes the bar, if it was shown.
    func clear() {
        if isShown { draw(TerminalText(.carriageReturn) + TerminalText(.clearToEndOfLine)) }
        isShown = false
    }

    private func draw(_ text: TerminalText) {
        guard failure == nil else { return }
        do {
            try ProcessStreams.write(text.rendered, to: descriptor, stream: .error)
        } catch let refused as StreamWriteFailure {
            failure = refused
        } catch {}
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
