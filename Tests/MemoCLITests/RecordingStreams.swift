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
        guard let capacity = outputCapacity else {
            output += text
            outputBytes += Array(text.utf8)
            return
        }
        let room = capacity - output.utf8.count
        if text.utf8.count <= room {
            output += text
            outputBytes += Array(text.utf8)
            return
        }
        output += String(decoding: text.utf8.prefix(max(0, room)), as: UTF8.self)
        throw StreamWriteFailure(stream: .output, errorNumber: outputFailure)
    }

    func writeError(_ text: String) throws {
        if let errorFailure { throw StreamWriteFailure(stream: .error, errorNumber: errorFailure) }
        error += text
    }

    private(set) var outputBytes: [UInt8] = []

    func writeOutput(bytes: UnsafeRawBufferPointer) throws {
        outputBytes += Array(bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }
    func readAllInput() -> [UInt8] { input }
    func readLine() -> String? { nil }
}
