#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings before raw mode, kept where a signal handler can reach them.
private nonisolated(unsafe) var savedTerminalSettings = termios()
private nonisolated(unsafe) var isRawModeActive = false

/// Puts the terminal in raw mode (no echo, no line buffering, Ctrl-C as a key)
/// and restores it on every way out: `restore()`, or SIGTERM/SIGHUP/SIGQUIT.
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
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        isRawModeActive = true
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber, restoreAndDie)
        }
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
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// Blocks until the user types, then decodes every key that arrived: a
    /// fast typist or a paste delivers several keys in one read.
    func readKeys() -> [TerminalKey] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count > 0 else { return [.endOfInput] }
        return TerminalKey.keys(in: Array(buffer[0..<count]))
    }
}

/// A key as the terminal sends it.
enum TerminalKey: Equatable {
    case character(Character)
    case rightArrow
    case leftArrow
    case enter
    case escape
    case interrupt
    case endOfInput
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
                let isArrow = index + 2 < bytes.count && (bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F)
                length = isArrow ? 3 : 1
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

    init(bytes: [UInt8]) {
        switch bytes {
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43]: self = .rightArrow
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44]: self = .leftArrow
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
