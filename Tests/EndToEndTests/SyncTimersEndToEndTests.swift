import Foundation
import TestSupport
import XCTest

/// Timers between devices through `memoapp sync` and a served hub: a
/// timer's pauses and laps made on two devices all count, and its to-do
/// is the same to-do everywhere (docs/sync.md).
final class SyncTimersEndToEndTests: XCTestCase {
    private func timers(_ memoapp: Memoapp) -> [[String: Any]] {
        SyncHomes.json(memoapp, "timer", "list", "--all") as? [[String: Any]] ?? []
    }

    func testLapsAndPausesFromTwoDevicesAllCountAndTheToDoFollows() throws {
        let homes = try SyncHomes(devices: 2)
        let (a, b) = (homes.devices[0], homes.devices[1])
        XCTAssertEqual(a.run("todo", "add", "write the report").status, 0)
        XCTAssertEqual(a.run("timer", "start", "--label", "laps").status, 0)
        XCTAssertEqual(a.run("timer", "start", "25m", "--todo", "1").status, 0)
        homes.syncAll()
        homes.assertConverged("after the first sync")

        let stopwatchOnB = "\(timers(b).first { $0["label"] as? String == "laps" }?["id"] as? Int ?? 0)"
        XCTAssertEqual(a.run("timer", "lap", "1").status, 0)
        XCTAssertEqual(b.run("timer", "lap", stopwatchOnB).status, 0)
        XCTAssertEqual(b.run("timer", "pause", stopwatchOnB).status, 0)
        homes.sync(1)
        homes.sync(0)
        homes.syncAll()
        homes.assertConverged("after laps on both")

        let stopwatch = try XCTUnwrap(timers(homes.hub).first { $0["label"] as? String == "laps" })
        XCTAssertEqual(stopwatch["state"] as? String, "paused", "b's pause is the later change")
        XCTAssertEqual((stopwatch["laps"] as? [Any])?.count, 2, "a's lap and b's")
        let countdown = try XCTUnwrap(timers(b).first { $0["kind"] as? String == "countdown" })
        let todoOnB = try XCTUnwrap(SyncHomes.todos(b).first)
        XCTAssertEqual(countdown["todo_id"] as? Int, todoOnB["id"] as? Int, "the same to-do on b, by its own id there")
        let status = try XCTUnwrap(SyncHomes.json(b, "sync", "--status") as? [String: Any])
        XCTAssertEqual(status["waiting"] as? Int, 0)
    }
}
