import CommandLineKit
import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on stderr: only on a terminal, only without --json, and
/// only once the work has taken a second, so quick imports print nothing.
final class ProgressBar {
    private let label: String
    private let descriptor: Int32
    private let isEnabled: Bool
    private let start = ProgressBar.monotonicSeconds()
    private var isShown = false
    private var lastDrawn = -1

    /// - Parameter descriptor: where stderr really is (see `CodecWarnings.silenced`).
    init(context: CommandContext, label: String, descriptor: Int32 = STDERR_FILENO) {
        self.label = label
        self.descriptor = descriptor
        // Asked of the descriptor itself: fd 2 may point at /dev/null meanwhile.
        isEnabled = isatty(descriptor) == 1 && !context.isJSON
    }

    func update(_ done: Int64, of total: Int64) {
        guard isEnabled, total > 0, ProgressBar.monotonicSeconds() - start >= 1 else { return }
        let percent = Int(min(100, done * 100 / total))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        isShown = true
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        draw("\r\(bar) \(percent)% \(label)\u{1B}[K")
    }

    func finish() {
        if isShown { draw("\r\u{1B}[K") }
    }

    private func draw(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
