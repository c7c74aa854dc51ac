import Foundation
import TestSupport
import XCTest

/// memoapp under the limits a shell can set (ulimit -n, ulimit -f): the exit
/// code always says what happened, and nothing is left half done.
final class ResourceLimitsEndToEndTests: XCTestCase {
    /// Runs memoapp as `app` would, under `limits` (`ulimit` arguments, e.g. `-n 6`).
    private func run(_ app: Memoapp, limits: String, _ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        runExternal("/bin/sh", ["-c", "ulimit \(limits) && exec \"$0\" \"$@\"", Memoapp.binaryPath] + arguments,
                    environment: app.environment)
    }

    func testARestoreThatFailsAfterReplacingTheDataSaysSoWithAnExitCodeThatDoesNotLie() throws {
        let scene = BackupScene()
        scene.backup()
        var outcomes: [String: [Int]] = [:]
        for limit in Array(3...16) + [64] {
            let target = scene.otherApp("target-\(limit)")
            target.onboard()
            XCTAssertEqual(target.run("todo", "add", "mine").status, 0)
            let result = run(target, limits: "-n \(limit)", ["restore", scene.path("backup"), "--force"])
            let titles = target.run(["todo", "list", "--json"]).array().compactMap { $0["title"] as? String }
            let replaced = titles.contains("Buy milk")
            let context = "ulimit -n \(limit): \(result.status) \(result.output) \(result.errors)"
            if replaced {
                XCTAssertTrue(result.status == 0 || result.status == 1, context)
                XCTAssertTrue(result.output.hasPrefix("Restored "), context)
                if result.status == 1 {
                    XCTAssertTrue(result.errors.contains("memoapp: the backup was restored, but then: "), context)
                    outcomes["restored, with a problem", default: []].append(limit)
                } else {
                    outcomes["restored", default: []].append(limit)
                }
            } else {
                XCTAssertEqual(titles, ["mine"], context)
                XCTAssertFalse([0, 1].contains(result.status), "nothing was restored: \(context)")
                XCTAssertFalse(result.errors.contains("restored"), context)
                outcomes["nothing changed", default: []].append(limit)
            }
        }
        XCTAssertNotNil(outcomes["restored"], "\(outcomes)")
        XCTAssertNotNil(outcomes["nothing changed"], "\(outcomes)")
        print("restore under ulimit -n: \(outcomes.sorted { $0.key < $1.key })")
    }

    func testAFileSizeLimitFailsTheWriteCleanlyAndNeverAfterACommitItReported() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        let title = String(repeating: "긴 제목 ", count: 400)  // about 4 KB, a WAL frame or two
        var outcomes: [Int32: [Int]] = [:]
        var count = 0
        for limit in stride(from: 1, through: 400, by: 13) {
            let result = run(app, limits: "-f \(limit)", ["todo", "add", title])
            let context = "ulimit -f \(limit): \(result.status) \(result.output) \(result.errors)"
            let now = app.run(["todo", "list", "--all", "--json"]).array().count
            switch result.status {
            case 0:
                XCTAssertTrue(result.output.hasPrefix("Added to-do"), context)
                XCTAssertEqual(now, count + 1, context)
            case 74:
                XCTAssertEqual(result.output, "", context)
                XCTAssertTrue(result.errors.hasPrefix("memoapp: "), context)
                if result.errors.contains("File too large") {
                    XCTAssertTrue(result.errors.contains("past the file size limit (ulimit -f); nothing was changed"), context)
                }
                XCTAssertEqual(now, count, "a failed add added nothing: \(context)")
            default:
                XCTFail("neither done nor refused (a signal?): \(context)")
            }
            count = now
            outcomes[result.status, default: []].append(limit)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: app.home).filter { $0.hasPrefix(".") }
            XCTAssertEqual(hidden, [], context)
        }
        XCTAssertNotNil(outcomes[0], "\(outcomes)")
        XCTAssertNotNil(outcomes[74], "\(outcomes)")
        XCTAssertEqual(app.run("doctor").status, 0)
    }

    func testAnExportPastTheFileSizeLimitLeavesNoTemporaryAndNamesTheFile() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        app.onboard()
        for index in 0..<60 { XCTAssertEqual(app.run("memo", "add", String(repeating: "메모 \(index) ", count: 200)).status, 0) }
        // Room for SQLite's 32 KiB -shm file (dash counts 512-byte blocks), not for the document.
        let limit = "-f 128"
        let output = folder.appending("out.json")
        let result = run(app, limits: limit, ["export", "-o", output])
        XCTAssertEqual(result.status, 74, result.errors)
        XCTAssertEqual(result.errors, "memoapp: cannot write \(output): File too large\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["home"])
        let audio = folder.appending("a.wav")
        XCTAssertEqual(app.run("voice", "import", VoiceHome.fixture("chord-stereo-22k.flac")).status, 0)
        let voice = run(app, limits: limit, ["voice", "export", "1", audio])
        XCTAssertEqual(voice.status, 74, voice.errors)
        XCTAssertTrue(voice.errors.contains(audio), voice.errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["home"])
    }

    func testStartedWithAnEmptyArgvItRunsAsWithNoArguments() throws {
        let folder = TemporaryDirectory()
        let app = Memoapp(home: folder.appending("home"))
        // execve with no argv at all; newer kernels hand the program one empty
        // argument instead, older ones argc 0: both must run, not trap.
        var argv: [UnsafeMutablePointer<CChar>?] = [nil]
        var environment = app.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        XCTAssertEqual(posix_spawn(&pid, Memoapp.binaryPath, &actions, nil, &argv, &environment), 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        XCTAssertEqual(status & 0x7F, 0, "killed by signal \(status & 0x7F)")
        XCTAssertEqual((status >> 8) & 0xFF, 3, "the main screen, gated until the onboarding is done")
    }
}
