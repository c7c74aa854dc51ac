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
}
