@testable import MemoCLI

/// A StandardStreams double: keeps what a command wrote, and plays a terminal
/// or a pipe as the test decides.
final class RecordingStreams: StandardStreams {
    private(set) var output = ""
    private(set) var error = ""
    private(set) var flushCount = 0
    var isOutputTerminal = false
    var isErrorTerminal = false
    var isInputTerminal = false
    var terminalWidth: Int?
    var input: [UInt8] = []

    private(set) var outputBytes: [UInt8] = []

    func writeOutput(_ text: String) {
        output += text
        outputBytes += Array(text.utf8)
    }

    func writeOutput(bytes: UnsafeRawBufferPointer) {
        outputBytes += Array(bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    func writeError(_ text: String) { error += text }
    func flushOutput() { flushCount += 1 }
    func readAllInput() -> [UInt8] { input }
}
