#if canImport(Glibc)
import Glibc
#endif
@testable import MemoCLI

/// A StandardStreams double: keeps what a command wrote, and plays a terminal
/// or a pipe as the test decides, or a stream that refuses writes (a full
/// disk, a closed descriptor, a reader gone away).
final class RecordingStreams: StandardStreams {
    private(set) var output = ""
    private(set) var error = ""
    var isOutputTerminal = false
    var isErrorTerminal = false
    var isInputTerminal = false
    var terminalWidth: Int?
    var input: [UInt8] = []
    /// Bytes stdout takes before every further write fails with `outputFailure`
    /// (a disk that fills up part way); nil: no limit.
    var outputCapacity: Int?
    /// The errno stdout's writes fail with once `outputCapacity` is reached.
    var outputFailure: Int32 = ENOSPC
    /// The errno every write to stderr fails with; nil: stderr works.
    var errorFailure: Int32?

    func writeOutput(_ text: String) throws {
        try record(Array(text.utf8))
    }

    func writeError(_ text: String) throws {
        if let errorFailure { throw StreamWriteFailure(stream: .error, errorNumber: errorFailure) }
        error += text
    }

    private(set) var outputBytes: [UInt8] = []

    func writeOutput(bytes: UnsafeRawBufferPointer) throws {
        try record(Array(bytes))
    }

    /// Keeps `bytes` as stdout, up to `outputCapacity`, past which the write
    /// fails with `outputFailure` after keeping what fitted.
    private func record(_ bytes: [UInt8]) throws {
        let room = outputCapacity.map { $0 - outputBytes.count } ?? bytes.count
        let kept = bytes.prefix(max(0, room))
        outputBytes += kept
        output += String(decoding: kept, as: UTF8.self)
        if kept.count < bytes.count { throw StreamWriteFailure(stream: .output, errorNumber: outputFailure) }
    }

    func readAllInput() -> [UInt8] { input }
    func readLine() -> String? { nil }
}
