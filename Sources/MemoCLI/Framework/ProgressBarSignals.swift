#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Where the bar being shown draws, for the handlers (-1: none shown).
private nonisolated(unsafe) var shownBarDescriptor: Int32 = -1
/// Set when the process was stopped (Ctrl-Z) and continued: the bar was
/// erased, and the next frame draws from the start of the line.
private nonisolated(unsafe) var wasStopped: sig_atomic_t = 0
/// The Ctrl-Z handler, put back after each `fg`.
private nonisolated(unsafe) var stopAction = sigaction()
/// Back to the line's start, erase it, show the cursor.
private let eraseSequence: StaticString = "\r\u{1B}[J\u{1B}[?25h"
private let hideCursorSequence: StaticString = "\u{1B}[?25l"

/// What a shown progress bar does on the signals that end or pause the
/// process, so the terminal is left clean:
/// - Ctrl-C, SIGTERM: erase the bar, show the cursor, remove the temporaries
///   being written (`InterruptCleanup`), then die of the signal as before
///   (the shell reports 130 or 143).
/// - Ctrl-Z: erase the bar and show the cursor, stop; on `fg`, hide the
///   cursor again and let the next frame redraw the bar.
///
/// The handlers make only async-signal-safe calls: write, unlink, signal,
/// sigprocmask, raise, sigaction.
struct ProgressBarSignals {
    private var previousInterrupt = sigaction()
    private var previousTerminate = sigaction()
    private var previousStop = sigaction()

    mutating func install(descriptor: Int32) {
        // Globals are set up on first use, which a handler must not be the
        // one to do: each is touched here first.
        _ = eraseSequence.utf8CodeUnitCount + hideCursorSequence.utf8CodeUnitCount
        wasStopped = 0
        shownBarDescriptor = descriptor
        InterruptCleanup.prepare()
        var ending = sigaction()
        ending.__sigaction_handler.sa_handler = { signalNumber in
            ProgressBarSignals.write(eraseSequence)
            InterruptCleanup.removeRegisteredFiles()
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
        sigemptyset(&ending.sa_mask)
        // No SA_RESETHAND (its bit does not fit the Int32 field Swift sees):
        // the handler puts the default back itself.
        ending.sa_flags = 0
        sigaction(SIGINT, &ending, &previousInterrupt)
        sigaction(SIGTERM, &ending, &previousTerminate)

        stopAction = sigaction()
        stopAction.__sigaction_handler.sa_handler = { _ in
            ProgressBarSignals.write(eraseSequence)
            // Stop now, inside the handler: with the default action back and
            // the signal unblocked, raise does not return until `fg`.
            signal(SIGTSTP, SIG_DFL)
            var stopping = sigset_t()
            sigemptyset(&stopping)
            sigaddset(&stopping, SIGTSTP)
            sigprocmask(SIG_UNBLOCK, &stopping, nil)
            raise(SIGTSTP)
            sigaction(SIGTSTP, &stopAction, nil)
            ProgressBarSignals.write(hideCursorSequence)
            wasStopped = 1
        }
        sigemptyset(&stopAction.sa_mask)
        stopAction.sa_flags = 0
        sigaction(SIGTSTP, &stopAction, &previousStop)
    }

    mutating func restore() {
        sigaction(SIGINT, &previousInterrupt, nil)
        sigaction(SIGTERM, &previousTerminate, nil)
        sigaction(SIGTSTP, &previousStop, nil)
        shownBarDescriptor = -1
    }

    /// Whether the process was stopped and continued since last asked.
    func takeWasStopped() -> Bool {
        guard wasStopped != 0 else { return false }
        wasStopped = 0
        return true
    }

    private static func write(_ sequence: StaticString) {
        if shownBarDescriptor >= 0 {
            _ = Glibc.write(shownBarDescriptor, sequence.utf8Start, sequence.utf8CodeUnitCount)
        }
    }
}
