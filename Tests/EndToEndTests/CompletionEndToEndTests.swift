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
        XCTAssertEqual(try complete(["memoapp", "help", "tod"], script: result.stdout), ["todo"], "help offers commands")
        XCTAssertTrue(try complete(["memoapp", "help", ""], script: result.stdout).contains("voice"))
        XCTAssertEqual(try complete(["memoapp", "--color", "al"], script: result.stdout), ["always"])

        // After an option that takes one of some words, those words.
        XCTAssertEqual(try complete(["memoapp", "todo", "list", "--sort", ""], script: result.stdout),
                       ["due", "priority", "created", "newest"])
        XCTAssertEqual(try complete(["memoapp", "--lang", ""], script: result.stdout), ["ko", "en"])
        // A positional that names a file completes file names.
        let audio = folder.appending("recording.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: audio, contents: Data()))
        XCTAssertEqual(try complete(["memoapp", "voice", "import", folder.appending("rec")], script: result.stdout),
                       [audio])
        // Where no file is expected, none is offered.
        XCTAssertEqual(try complete(["memoapp", "todo", "add", folder.appending("rec")], script: result.stdout), [])

        let wrongShell = app.run("completion", "tcsh")
        XCTAssertEqual(wrongShell.status, 64)
        XCTAssertTrue(wrongShell.stderr.contains("bash, zsh, fish"), wrongShell.stderr)
    }

    /// Runs fish's own completion engine on the generated script: what a fish
    /// user gets on Tab, as "word<TAB>description" lines.
    private func fishComplete(_ commandLine: String, script: String) throws -> [String] {
        let folder = TemporaryDirectory()
        let scriptPath = folder.appending("memoapp.fish")
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let fish = Process()
        fish.executableURL = URL(fileURLWithPath: "/usr/bin/fish")
        fish.arguments = ["--no-config", "-c", "source \(scriptPath); complete -C \"$argv[1]\"", commandLine]
        let pipe = Pipe()
        fish.standardOutput = pipe
        try fish.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        fish.waitUntilExit()
        XCTAssertEqual(fish.terminationStatus, 0, "fish failed on the script")
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testFishCompletionOffersCommandsOptionsAndValuesWithHelp() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        let result = app.run("completion", "fish")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home), "completion touched the data home")
        let script = result.stdout

        XCTAssertEqual(try fishComplete("memoapp tod", script: script), ["todo\tto-dos: add, list, finish"])
        XCTAssertEqual(try fishComplete("memoapp todo ad", script: script), ["add\tadd a to-do"])
        // Global options and their values anywhere; a value does not derail the walk.
        XCTAssertEqual(try fishComplete("memoapp --lang ko todo list --so", script: script),
                       ["--sort\torder (default: due; newest: last added first)"])
        XCTAssertEqual(try fishComplete("memoapp todo list --sort ", script: script).map { $0.prefix { $0 != "\t" } },
                       ["created", "due", "newest", "priority"])
        XCTAssertEqual(try fishComplete("memoapp completion f", script: script).map { $0.prefix { $0 != "\t" } },
                       ["fish"])
        // Files only where a file is expected.
        let audio = folder.appending("recording.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: audio, contents: Data()))
        XCTAssertEqual(try fishComplete("memoapp voice import \(folder.appending("rec"))", script: script), [audio])
        XCTAssertEqual(try fishComplete("memoapp todo add \(folder.appending("rec"))", script: script), [])
        // Help text in the invocation's language, quoted safely.
        let korean = app.run("--lang", "ko", "completion", "fish")
        XCTAssertEqual(try fishComplete("memoapp tod", script: korean.stdout), ["todo\t할 일: 추가, 목록, 완료"])
    }
}
