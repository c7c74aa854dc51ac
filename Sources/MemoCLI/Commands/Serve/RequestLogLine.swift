#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoCore

/// The server's log: one line per request on stderr, as it ends: method,
/// path (no query: it may carry what a log should not), status, body bytes,
/// milliseconds. With --json, one JSON object per line.
enum RequestLogLine {
    /// The log for stderr, or nil when stderr is /dev/null: a line made and
    /// written per request that nobody can read was a cost of its own
    /// under load (the server runs that way under a supervisor that keeps
    /// no log, and in benchmarks).
    static func writerForStandardError(isJSON: Bool) -> (@Sendable (RequestRecord) -> Void)? {
        isNullDevice(STDERR_FILENO) ? nil : writer(isJSON: isJSON)
    }

    /// Whether `descriptor` is open on the null device (the character
    /// device /dev/null names), where every write is thrown away.
    static func isNullDevice(_ descriptor: Int32) -> Bool {
        var opened = stat()
        var null = stat()
        guard fstat(descriptor, &opened) == 0, stat("/dev/null", &null) == 0 else { return false }
        return opened.st_mode & S_IFMT == S_IFCHR && null.st_mode & S_IFMT == S_IFCHR && opened.st_rdev == null.st_rdev
    }

    static func writer(isJSON: Bool) -> @Sendable (RequestRecord) -> Void {
        { record in
            let line = isJSON ? json(record).serialized : text(record)
            // One write(2) per line, so lines from several threads never interleave.
            var bytes = Array((line + "\n").utf8)
            bytes.withUnsafeMutableBytes { buffer in
                _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
            }
        }
    }

    static func text(_ record: RequestRecord) -> String {
        let outcome = record.outcome == .completed ? "" : " (\(name(record.outcome)))"
        return "\(record.method) \(record.path) \(record.status) \(record.bytes)B "
            + String(format3(record.milliseconds)) + "ms" + outcome
    }

    static func json(_ record: RequestRecord) -> JSON {
        .object([("method", .string(record.method)), ("path", .string(record.path)), ("status", .int(record.status)),
                 ("bytes", .int(Int64(clamping: record.bytes))), ("ms", .double(record.milliseconds)),
                 ("outcome", .string(name(record.outcome)))])
    }

    static func name(_ outcome: RequestRecord.Outcome) -> String {
        switch outcome {
        case .completed: return "completed"
        case .failed: return "failed"
        case .timedOut: return "timed_out"
        case .serverStopped: return "server_stopped"
        }
    }

    /// Milliseconds with one decimal.
    static func format3(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
