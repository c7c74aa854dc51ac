import Foundation
import TestSupport
import XCTest

/// Completion of what the data holds, in real shells against a real data
/// home: ids with their titles (open to-dos for `todo done`), tags, folders
/// for `import --audio`, choice words, through the --home typed on the line;
/// and the hidden helper's output clean of control characters.
final class CompletionDataEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!
    var session: TmuxSession?
    /// The binary's folder, for shells that find `memoapp` on PATH.
    var path: String {
        URL(fileURLWithPath: Memoapp.binaryPath).deletingLastPathComponent().path + ":/usr/bin:/bin"
    }

    override func setUpWithError() throws {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        XCTAssertEqual(app.run("todo", "add", "우유 사기", "--tag", "home", "--tag", "shop").status, 0)
        XCTAssertEqual(app.run("todo", "add", "Call mum", "--tag", "home").status, 0)
        XCTAssertEqual(app.run("todo", "add", "Pay rent").status, 0)
        XCTAssertEqual(app.run("todo", "done", "2").status, 0)
        XCTAssertEqual(app.run(["memo", "add"], input: Data("evil\ttab\u{1B}[2Jtext\nsecond line".utf8)).status, 0)
    }

    override func tearDown() {
        session?.kill()
    }

    func testTheHiddenHelperPrintsCleanLinesAndNothingWithoutData() throws {
        let todos = app.run("__complete", "todos", "--home", app.home)
        XCTAssertEqual(todos.status, 0, todos.stderr)
        XCTAssertEqual(todos.stdout, "3\tPay rent\n2\tCall mum\n1\t우유 사기\n")
        let memos = app.run("__complete", "memos", "--home", app.home)
        XCTAssertEqual(memos.stdout, "1\tevil tab [2Jtext second line\n", "one tab, one line, no escape")
        XCTAssertEqual(app.run("__complete", "tags", "--home", app.home).stdout, "home\nshop\n")

        let empty = Memoapp(home: folder.appending("empty"))
        for source in ["todos", "tags", "nonsense"] {
            let result = empty.run("__complete", source)
            XCTAssertEqual([result.stdout, result.stderr], ["", ""], source)
            XCTAssertEqual(result.status, 0, source)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.home), "a Tab press makes no data home")
    }

    /// What bash's completion function offers for `words` (the last one being
    /// completed), with the generated script loaded.
    private func bash(_ words: [String]) throws -> [String] {
        let script = folder.appending("memoapp.bash")
        try app.run("completion", "bash").stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let quoted = ([Memoapp.binaryPath] + words).map { "'\($0)'" }.joined(separator: " ")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "source \(script); complete -p memoapp >/dev/null || exit 9; COMP_WORDS=(\(quoted)); "
                           + "COMP_CWORD=\(words.count); _memoapp; printf '%s\\n' \"${COMPREPLY[@]}\""]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testBashOffersIdsTagsFoldersAndChoices() throws {
        let home = ["--home", app.home]
        XCTAssertEqual(try bash(home + ["todo", "done", ""]), ["3", "1"], "open to-dos only, and no '--'")
        XCTAssertEqual(try bash(home + ["todo", "undo", ""]), ["2"])
        XCTAssertEqual(try bash(home + ["todo", "show", "3"]), ["3"])
        XCTAssertEqual(try bash(home + ["memo", "show", ""]), ["1"])
        XCTAssertEqual(try bash(home + ["todo", "list", "--tag", "s"]), ["shop"])
        XCTAssertEqual(try bash(home + ["timer", "start", "--todo", ""]), ["3", "1"])
        XCTAssertEqual(try bash(["todo", "add", "x", "--priority", ""]), ["high", "medium", "low"])
        XCTAssertEqual(try bash(["todo", "done", "--js"]), ["--json"], "options still, after a dash")
        // Folders only where a folder is asked for.
        let audio = folder.appending("audio")
        try FileManager.default.createDirectory(atPath: audio, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appending("audit.json"), contents: Data()))
        XCTAssertEqual(try bash(home + ["import", "--audio", folder.appending("au")]), [audio])
        XCTAssertEqual(Set(try bash(home + ["import", folder.appending("au")])), [audio, folder.appending("audit.json")])
        // Without a data home the ids are simply not there.
        XCTAssertEqual(try bash(["--home", folder.appending("none"), "todo", "done", ""]), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending("none")))
    }

    private func fish(_ commandLine: String) throws -> [String] {
        let script = folder.appending("memoapp.fish")
        try app.run("completion", "fish").stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/fish")
        shell.arguments = ["--no-config", "-c", "source \(script); complete -C \"$argv[1]\"", commandLine]
        shell.environment = ["PATH": path, "HOME": folder.path, "LANG": "C.UTF-8"]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testFishOffersIdsWithTheirTitles() throws {
        XCTAssertEqual(try fish("memoapp --home \(app.home) todo done "), ["3\tPay rent", "1\t우유 사기"])
        XCTAssertEqual(try fish("memoapp --home \(app.home) memo show "), ["1\tevil tab [2Jtext second line"])
        XCTAssertEqual(try fish("memoapp --home \(app.home) todo list --tag h").map { $0.prefix { $0 != "\t" } }, ["home"])
        XCTAssertEqual(try fish("memoapp todo add x --priority ").map { $0.prefix { $0 != "\t" } }, ["high", "low", "medium"])
    }

    func testZshListsIdsWithTheirTitlesOnTab() throws {
        try XCTSkipUnless(TmuxSession.isAvailable, "tmux is not installed (scripts/test installs it)")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is missing: scripts/test installs it")
        let script = folder.appending("memoapp.zsh")
        try app.run("completion", "zsh").stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let session = TmuxSession(folder: folder)
        self.session = session
        try session.start(command: "exec zsh -f -i", environment: ["PATH": path, "HOME": folder.path, "LANG": "C.UTF-8",
                                                                    "TERM": "xterm", "PS1": "%% "])
        session.type("autoload -U compinit && compinit -u && source \(script) && echo LOADED")
        XCTAssertTrue(session.waitForScreen { $0.contains("LOADED\n") }, session.screen())
        session.type("clear")
        session.send(keys: ["memoapp --home \(app.home) todo done ", "Tab"])
        XCTAssertTrue(session.waitForScreen { $0.contains("Pay rent") && $0.contains("우유 사기") }, session.screen())
        XCTAssertFalse(session.screen().contains("Call mum"), "a done to-do is not offered to 'done'")
        XCTAssertFalse(session.screen().contains("--all"), session.screen())
        session.send(keys: ["C-u", "memoapp tod", "Tab"])
        // The screen is read without trailing spaces: the word is whole when the line ends there.
        XCTAssertTrue(session.waitForScreen { $0.contains("% memoapp todo\n") }, session.screen())
        session.send(keys: ["C-u", "memoapp todo list --so", "Tab"])
        XCTAssertTrue(session.waitForScreen { $0.contains("% memoapp todo list --sort\n") }, session.screen())
        session.send(keys: ["Tab"])
        XCTAssertTrue(session.waitForScreen { $0.contains("priority") && $0.contains("created") }, session.screen())
    }
}
