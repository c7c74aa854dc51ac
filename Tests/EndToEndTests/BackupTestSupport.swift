import Foundation
import TestSupport
import XCTest

/// A data home with one of everything (to-dos, memos, voice memos, timers,
/// the onboarding done) and folders beside it for backups and other homes.
final class BackupScene {
    let folder = TemporaryDirectory()
    let app: Memoapp

    init(filled: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        app = Memoapp(home: folder.appending("home"))
        guard filled else { return }
        app.onboard(file: file, line: line)
        for arguments in [
            ["todo", "add", "Buy milk", "--due", "tomorrow", "--priority", "high", "--tag", "home"],
            ["todo", "add", "주간 보고서 쓰기", "--tag", "work"],
            ["memo", "add", "회의록: 다음 주 화요일까지 초안"],
            ["voice", "import", VoiceHome.fixture("tone-mono-16k.wav"), "--tag", "test"],
            ["voice", "import", VoiceHome.fixture("chord-stereo-22k.flac"), "--title", "화음"],
            ["timer", "start", "25m", "--label", "focus"],
            ["timer", "pause", "1"],
            ["todo", "done", "2"],
        ] {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        }
    }

    /// A path beside the data home.
    func path(_ name: String) -> String { folder.appending(name) }

    /// A memoapp on another data home beside this one (not created yet).
    func otherApp(_ name: String) -> Memoapp { Memoapp(home: folder.appending(name)) }

    /// Runs `memoapp backup DIR --json` and expects success.
    @discardableResult
    func backup(to name: String = "backup", file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let result = app.run(["backup", path(name), "--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.object(file: file, line: line)
    }
}

/// What the user sees of a data home's content, home paths left out, for
/// comparing a home with its restored copy.
func visibleContent(of app: Memoapp) -> [String] {
    ["todo list --all", "memo list", "voice list", "timer list --all", "onboard status"].map { command in
        let result = app.run(command.split(separator: " ").map(String.init) + ["--json"])
        return "\(result.status) " + result.stdout.replacingOccurrences(of: app.home, with: "HOME")
    }
}

/// Every file under a folder (relative path → bytes; folders end in "/"),
/// for "left untouched" checks. An absent folder gives an empty tree.
func fileTree(_ path: String) -> [String: Data] {
    var tree: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return tree }
    for case let relative as String in enumerator {
        let full = path + "/" + relative
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
        tree[isDirectory.boolValue ? relative + "/" : relative] = isDirectory.boolValue
            ? Data() : (FileManager.default.contents(atPath: full) ?? Data("unreadable".utf8))
    }
    return tree
}

/// Runs a tool and returns its exit status, stdout and stderr.
@discardableResult
func runExternal(_ tool: String, _ arguments: [String], in directory: String? = nil,
             environment: [String: String]? = nil) -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do { try process.run() } catch { return (-1, "", "cannot run \(tool): \(error)") }
    // stderr is read on its own thread, so that neither pipe can fill and block the tool.
    let errorData = Locked(Data())
    let group = DispatchGroup()
    group.enter()
    Thread {
        errorData.withValue { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
        group.leave()
    }.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self),
            String(decoding: errorData.current, as: UTF8.self))
}

/// The XXH3-128 of a file as `xxh128sum` prints it.
func xxh128(_ path: String) -> String {
    String(runExternal("/usr/bin/xxh128sum", [path]).output.prefix(32))
}

/// A path with `//` and links resolved, as memoapp reports folders.
func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}

/// Replaces a backup's MANIFEST with `text` (to forge one).
func writeManifest(_ backup: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: backup + "/MANIFEST"))
}

/// Runs each body on a thread of its own, all at once, and waits for all
/// (unlike `runConcurrently`, never fewer threads than bodies on a small machine).
func runOnOwnThreads(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
    group.wait()
}
