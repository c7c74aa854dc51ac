#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings before raw mode, and raw mode's own, kept where a
/// signal handler can reach them.
private nonisolated(unsafe) var savedTerminalSettings = termios()
private nonisolated(unsafe) var rawTerminalSettings = termios()
private nonisolated(unsafe) var isRawModeActive = false
/// Set by a signal handler (the window changed size, or the process came back
/// from a suspension), read by `readKeys`: the screen must be drawn again.
private nonisolated(unsafe) var isRedrawPending: sig_atomic_t = 0

/// Puts the terminal in raw mode (no echo, no line buffering, Ctrl-C as a key)
/// and restores it on every way out: `restore()`, or SIGTERM/SIGHUP/SIGQUIT.
/// A resize (SIGWINCH) asks for a redraw; Ctrl-Z or SIGTSTP gives the
/// terminal back as it was and stops, and `fg` (SIGCONT) takes it again,
/// drops what was typed meanwhile and asks for a redraw.
final class RawTerminal {
    /// Control sequences for a full-screen view.
    static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"
    static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"

    init?() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedTerminalSettings) == 0 else { return nil }
        var raw = savedTerminalSettings
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        rawTerminalSettings = raw
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &rawTerminalSettings) == 0 else { return nil }
        isRawModeActive = true
        isRedrawPending = 0
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber, restoreAndDie)
        }
        // Without SA_RESTART, so that a blocked read returns (EINTR) and the
        // pager redraws at once rather than at the next key.
        installHandler(markRedraw, for: SIGWINCH)
        installHandler(suspendFromSignal, for: SIGTSTP)
        installHandler(resumeFromSignal, for: SIGCONT)
        writeRaw(RawTerminal.enterScreen)
    }

    deinit {
        restore()
    }

    /// Back to the settings the user had, and the normal screen.
    func restore() {
        guard isRawModeActive else { return }
        writeRaw(RawTerminal.leaveScreen)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminalSettings)
        isRawModeActive = false
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// Stops the process as Ctrl-Z does in a shell (raw mode reads Ctrl-Z as
    /// a key): the terminal is restored first, and taken again on `fg`.
    func suspend() {
        kill(getpid(), SIGTSTP)
    }

    /// Blocks until the user types, then decodes every key that arrived: a
    /// fast typist or a paste delivers several keys in one read. Returns
    /// `[.redraw]` instead when the window changed or the process came back
    /// from a suspension.
    func readKeys() -> [TerminalKey] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            if isRedrawPending != 0 {
                isRedrawPending = 0
                return [.redraw]
            }
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { return TerminalKey.keys(in: Array(buffer[0..<count])) }
            if count < 0 && errno == EINTR { continue }
            return [.endOfInput]
        }
    }
}

/// A key as the terminal sends it.
enum TerminalKey: Equatable {
    case character(Character)
    case rightArrow
    case leftArrow
    case enter
    case escape
    case home
    case end
    case pageUp
    case pageDown
    case interrupt
    /// Ctrl-Z.
    case suspend
    case endOfInput
    /// Not a key: the screen must be drawn again (a resize, back from Ctrl-Z).
    case redraw
    case other

    /// Splits what one read returned into keys: escape sequences for the
    /// arrows, control bytes, and UTF-8 characters.
    static func keys(in bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var index = 0
        while index < bytes.count {
            let length: Int
            switch bytes[index] {
            case 0x1B:
                length = escapeSequenceLength(bytes[index...])
            case 0xC0...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF7: length = 4
            default: length = 1
            }
            let end = min(index + length, bytes.count)
            keys.append(TerminalKey(bytes: Array(bytes[index..<end])))
            index = end
        }
        return keys
    }

    /// Bytes of the escape sequence at the start of `bytes`: ESC alone, ESC [
    /// or ESC O and a final letter (arrows, Home and End as xterm sends them),
    /// or ESC [ digits ~ (Home, End, PageUp, PageDown as the VT220 sends them).
    private static func escapeSequenceLength(_ bytes: ArraySlice<UInt8>) -> Int {
        let start = bytes.startIndex
        guard bytes.count >= 3, bytes[start + 1] == 0x5B || bytes[start + 1] == 0x4F else { return 1 }
        var index = start + 2
        while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return 1 }
        return index - start + 1
    }

    init(bytes: [UInt8]) {
        switch bytes {
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43]: self = .rightArrow
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44]: self = .leftArrow
        case [0x1B, 0x5B, 0x48], [0x1B, 0x4F, 0x48], Array("\u{1B}[1~".utf8), Array("\u{1B}[7~".utf8): self = .home
        case [0x1B, 0x5B, 0x46], [0x1B, 0x4F, 0x46], Array("\u{1B}[4~".utf8), Array("\u{1B}[8~".utf8): self = .end
        case Array("\u{1B}[5~".utf8): self = .pageUp
        case Array("\u{1B}[6~".utf8): self = .pageDown
        case [0x1A]: self = .suspend
        case [0x1B]: self = .escape
        case [0x0D], [0x0A]: self = .enter
        case [0x03]: self = .interrupt
        case [0x04]: self = .endOfInput
        default:
            if let text = String(validating: bytes, as: UTF8.self), text.count == 1, let first = text.first {
                self = .character(first)
            } else {
                self = .other
            }
        }
    }
}

private func writeRaw(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

private func installHandler(_ handler: @convention(c) (Int32) -> Void, for signalNumber: Int32) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signalNumber, &action, nil)
}

private func markRedraw(_ signalNumber: Int32) {
    isRedrawPending = 1
}

/// SIGTSTP (Ctrl-Z): the user's terminal back as it was, then stop as the
/// default action would. Only async-signal-safe calls: write, tcsetattr,
/// signal, sigprocmask, raise.
private func suspendFromSignal(_ signalNumber: Int32) {
    if isRawModeActive {
        let leave = RawTerminal.leaveScreen
        leave.utf8CString.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminalSettings)
    }
    signal(SIGTSTP, SIG_DFL)
    // SIGTSTP is blocked while its handler runs: unblocked, the raise stops
    // the process here, rather than when the handler returns, after it
    // would be reinstalled (and would catch its own signal forever).
    var tstp = sigset_t()
    sigemptyset(&tstp)
    sigaddset(&tstp, SIGTSTP)
    sigprocmask(SIG_UNBLOCK, &tstp, nil)
    raise(SIGTSTP)
    // Stopped until SIGCONT; `resumeFromSignal` has taken the terminal again.
    installHandler(suspendFromSignal, for: SIGTSTP)
}

/// SIGCONT (`fg`): raw mode again, dropping what was typed while stopped, the
/// full screen again, and a redraw.
private func resumeFromSignal(_ signalNumber: Int32) {
    guard isRawModeActive else { return }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &rawTerminalSettings)
    let enter = RawTerminal.enterScreen
    enter.utf8CString.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    isRedrawPending = 1
}

/// Restores the terminal, then dies of the same signal so the parent sees why.
private func restoreAndDie(_ signalNumber: Int32) {
    if isRawModeActive {
        let leave = RawTerminal.leaveScreen
        leave.utf8CString.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminalSettings)
    }
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
