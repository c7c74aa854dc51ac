import Foundation
import TestSupport
import XCTest

/// The generated bash completion, loaded into a real bash.
final class CompletionEndToEndTests: XCTestCase {
    private func complete(_ words: [String], script: String) throws -> [String] {
        let folder = TemporaryDirectory()
        let scriptPath = folder.appending("completion.bash")
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", "source \(scriptPath); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
                          + "_memoapp; printf '%s\\n' \"${COMPREPLY[@]}\""]
        let pipe = Pipe()
        bash.standardOutput = pipe
        try bash.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        bash.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testBashCompletionWalksTheCommandTree() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        let result = app.run("completion", "bash")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "completion touched the data home")

        XCTAssertEqual(try complete(["memoapp", "onb"], script: result.stdout), ["onboard"])
        XCTAssertEqual(try complete(["memoapp", "onboard", "sk"], script: result.stdout), ["skip"])
        // An option's value in between does not derail the walk.
        XCTAssertEqual(try complete(["memoapp", "--lang", "ko", "onboard", "--j"], script: result.stdout), ["--json"])
        XCTAssertTrue(try complete(["memoapp", ""], script: result.stdout).contains("onboard"))

        let wrongShell = app.run("completion", "fish")
        XCTAssertEqual(wrongShell.status, 64)
        XCTAssertTrue(wrongShell.stderr.contains("bash, zsh"), wrongShell.stderr)
    }
}
