import Foundation

/// Runs a program to its end: `input` fed on stdin, stdout and stderr read
/// while it runs (so a large output cannot block it), terminated after
/// `timeout` seconds. Status -1 and the reason on stderr when it cannot start.
public func runChildProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                            input: Data? = nil, timeout: TimeInterval = 60) -> (status: Int32, stdout: Data, stderr: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    let stdinPipe = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdinPipe
    do {
        try process.run()
    } catch {
        return (-1, Data(), Data("could not start \(executable): \(error)".utf8))
    }
    let outData = Locked(Data())
    let errData = Locked(Data())
    let group = DispatchGroup()
    for (pipe, sink) in [(output, outData), (errors, errData)] {
        group.enter()
        DispatchQueue.global().async {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            sink.withValue { $0 = data }
            group.leave()
        }
    }
    // Fed from its own thread (a large input must not block the reads) and
    // tolerant of a process that exits without reading it all.
    group.enter()
    DispatchQueue.global().async {
        if let input { try? stdinPipe.fileHandleForWriting.write(contentsOf: input) }
        try? stdinPipe.fileHandleForWriting.close()
        group.leave()
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        group.wait()
    }
    process.waitUntilExit()
    return (process.terminationStatus, outData.current, errData.current)
}
