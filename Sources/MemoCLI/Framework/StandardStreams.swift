#if canImport(Glibc)
import Glibc
#endif

/// Where a command's bytes go and come from. The real one is the process's
/// stdin, stdout and stderr; tests hand in a recording one.
public protocol StandardStreams: AnyObject {
    func writeOutput(_ text: String)
    /// Raw bytes for stdout (a file written to `-`), which need not be UTF-8.
    func writeOutput(bytes: UnsafeRawBufferPointer)
    func writeError(_ text: String)
    func flushOutput()
    var isOutputTerminal: Bool { get }
    var isErrorTerminal: Bool { get }
    var isInputTerminal: Bool { get }
    /// Reads standard input to its end.
    func readAllInput() -> [UInt8]
    /// Columns of the terminal on stdout (or stderr), or nil when there is none.
    var terminalWidth: Int? { get }
}

/// The process's own streams.
public final class ProcessStreams: StandardStreams {
    public init() {}

    public func writeOutput(_ text: String) {
        var text = text
        text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    public func writeOutput(bytes: UnsafeRawBufferPointer) {
        _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout)
    }

    public func writeError(_ text: String) {
        fflush(stdout)
        var text = text
        text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stderr) }
        fflush(stderr)
    }

    public func flushOutput() {
        fflush(stdout)
    }

    public var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    public var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    public var isInputTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    public func readAllInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return bytes
    }

    public var terminalWidth: Int? {
        var size = winsize()
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 {
            if size.ws_col > 0 { return Int(size.ws_col) }
        }
        return nil
    }
}
