#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Where a command's bytes go and come from. The real one is the process's
/// stdin, stdout and stderr; tests hand in a recording one.
public protocol StandardStreams: AnyObject {
    /// Writes all of `text` to standard output.
    /// - Throws: `StreamWriteFailure` when the system refuses (a full disk, a
    ///   closed descriptor, a reader that went away).
    func writeOutput(_ text: String) throws
    /// Raw bytes for stdout (a file written to `-`), which need not be UTF-8;
    /// throws as `writeOutput` does.
    func writeOutput(bytes: UnsafeRawBufferPointer) throws
    /// Writes all of `text` to standard error; throws as `writeOutput` does.
    func writeError(_ text: String) throws
    var isOutputTerminal: Bool { get }
    var isErrorTerminal: Bool { get }
    var isInputTerminal: Bool { get }
    /// Reads standard input to its end; throws (`no_input`) when a read
    /// fails before it, rather than give part of it as the whole.
    func readAllInput() throws -> [UInt8]
    /// One line of standard input without its line break; nil at its end.
    func readLine() -> String?
    /// Columns of the terminal on stdout (or stderr), or nil when there is none.
    var terminalWidth: Int? { get }
}

/// A write to standard output or standard error that the system refused.
public struct StreamWriteFailure: Error, Equatable, Sendable {
    /// Which stream.
    public enum Stream: Sendable {
        case output
        case error
    }

    public let stream: Stream
    /// The `errno` of the failed write(2), e.g. ENOSPC, EBADF, EPIPE.
    public let errorNumber: Int32

    public init(stream: Stream, errorNumber: Int32) {
        self.stream = stream
        self.errorNumber = errorNumber
    }

    /// The reader of a pipe went away (`memoapp todo list | head -1`): not a
    /// failure to report, the process ends quietly as SIGPIPE would end it.
    public var isBrokenPipe: Bool { errorNumber == EPIPE }

    /// The system's words for the cause, e.g. "No space left on device".
    public var reason: String { String(cString: strerror(errorNumber)) }
}

/// The process's own streams, written with write(2) and every result checked:
/// what stdio would buffer and lose (a full disk's ENOSPC, a closed stdout's
/// EBADF) comes back as a `StreamWriteFailure`.
public final class ProcessStreams: StandardStreams {
    public init() {
        ProcessStreams.reserveStandardDescriptors()
    }

    public func writeOutput(_ text: String) throws {
        try ProcessStreams.write(text, to: STDOUT_FILENO, stream: .output)
    }

    public func writeOutput(bytes: UnsafeRawBufferPointer) throws {
        try ProcessStreams.write(bytes, to: STDOUT_FILENO, stream: .output)
    }

    public func writeError(_ text: String) throws {
        try ProcessStreams.write(text, to: STDERR_FILENO, stream: .error)
    }

    public var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    public var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    public var isInputTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    public func readAllInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                // Not the end: what was read is part of the input, and a memo
                // or an import made of it would silently lack the rest.
                let reason = String(cString: strerror(errno))
                throw MemoError(.noInput, en: "cannot read standard input: \(reason)",
                                ko: "표준 입력을 읽을 수 없습니다: \(reason)")
            }
        }
    }

    /// Byte by byte, so that nothing after the line is taken from the input.
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { break }
                bytes.append(byte)
            } else if count == 0 || errno != EINTR {
                if bytes.isEmpty { return nil }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var terminalWidth: Int? {
        var size = winsize()
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 {
            if size.ws_col > 0 { return Int(size.ws_col) }
        }
        return nil
    }

    /// Writes every one of `bytes` to `descriptor`, through interrupted and
    /// partial writes, and waits (poll) on a descriptor some other program
    /// left non-blocking rather than dropping what did not fit.
    /// - Throws: `StreamWriteFailure` with the errno of the write that failed.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32,
                             stream: StreamWriteFailure.Stream) throws {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
                continue
            }
            let failure = count == 0 ? EIO : errno
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
                continue
            }
            throw StreamWriteFailure(stream: stream, errorNumber: failure)
        }
    }

    /// Writes all of `text`'s UTF-8 to `descriptor`, as `write(_:to:stream:)` does.
    public static func write(_ text: String, to descriptor: Int32, stream: StreamWriteFailure.Stream) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0), to: descriptor, stream: stream) }
    }

    /// A process started with descriptor 0, 1 or 2 closed (`memoapp todo list >&-`)
    /// would hand that number to the next file it opens, and its output would
    /// land in that file. /dev/null opened read-only takes the empty places,
    /// as SQLite does for its own files: reading gives nothing, and a write
    /// fails with EBADF, which is reported like any failed write.
    static func reserveStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
