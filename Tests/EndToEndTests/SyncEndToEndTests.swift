import Foundation
import TestSupport
import XCTest

/// `memoapp sync` between a hub and devices, the real binary over loopback:
/// items both ways, removals, what a device says, and what it refuses.
final class SyncEndToEndTests: XCTestCase {
    func testItemsTravelBothWaysAndRemovalsFollowWithNothingDoubled() throws {
        let homes = try SyncHomes(devices: 2)
        let (a, b) = (homes.devices[0], homes.devices[1])
        XCTAssertEqual(homes.hub.run("todo", "add", "made on the hub", "--tag", "hub", "--due", "2030-05-01").status, 0)
        XCTAssertEqual(a.run("todo", "add", "made on a", "--priority", "high", "--repeat", "weekly", "--due", "2030-05-02").status, 0)
        XCTAssertEqual(a.run("memo", "add", "첫 줄\n둘째 줄", "--title", "회의", "--tag", "work").status, 0)
        homes.syncAll()
        homes.assertConverged()
        let onB = SyncHomes.todos(b)
        XCTAssertEqual(Set(onB.compactMap { $0["title"] as? String }), ["made on the hub", "made on a"])
        let fromA = try XCTUnwrap(onB.first { $0["title"] as? String == "made on a" })
        XCTAssertEqual(fromA["priority"] as? String, "high")
        XCTAssertNotNil(fromA["repeat"] as? [String: Any], "the repeat rule travels")
        let memo = try XCTUnwrap(SyncHomes.memos(b).first)
        XCTAssertEqual(memo["text"] as? String, "첫 줄\n둘째 줄")
        XCTAssertEqual(memo["tags"] as? [String], ["work"])

        // A removal on b reaches a and the hub; syncing again changes nothing.
        let idOnB = try XCTUnwrap(onB.first { $0["title"] as? String == "made on the hub" }?["id"] as? Int)
        XCTAssertEqual(b.run("todo", "rm", "\(idOnB)").status, 0)
        homes.syncAll()
        homes.assertConverged()
        XCTAssertEqual(SyncHomes.todos(a).compactMap { $0["title"] as? String }, ["made on a"])
        let quiet = homes.sync(0).object()
        XCTAssertEqual(quiet["pushed"] as? Int, 0)
        XCTAssertEqual(quiet["written"] as? Int, 0, "a sync with nothing to do writes nothing")
    }

    func testTheServerAndTokenAreSavedAndStatusTellsWhatWaits() throws {
        let homes = try SyncHomes(devices: 1)
        let device = homes.devices[0]
        let before = device.run("--json", "sync", "--status").object()
        XCTAssertTrue(before["server"] is NSNull, "not syncing yet: \(before)")
        XCTAssertEqual(device.run("sync").status, 64, "no saved server: usage")
        homes.sync(0)
        XCTAssertEqual(device.run("todo", "add", "waits").status, 0)
        XCTAssertEqual(device.run("todo", "add", "waits too").status, 0)
        let status = device.run("--json", "sync", "--status").object()
        XCTAssertEqual(status["server"] as? String, homes.url)
        XCTAssertEqual(status["waiting"] as? Int, 2)
        XCTAssertNotNil(status["last_sync"] as? String)
        let plain = device.run("sync")
        XCTAssertEqual(plain.status, 0, "the saved server and token: \(plain.stderr)")
        XCTAssertTrue(plain.stdout.contains("sent 2"), plain.stdout)
        XCTAssertEqual(device.run("--json", "sync", "--status").object()["waiting"] as? Int, 0)
        XCTAssertEqual(SyncHomes.todos(homes.hub).count, 2)
    }

    func testAWrongOrRevokedTokenIs77AndAnUnreachableServer69ChangingNothing() throws {
        let homes = try SyncHomes(devices: 1)
        let device = homes.devices[0]
        XCTAssertEqual(device.run("todo", "add", "kept here").status, 0)
        let wrong = device.run("--json", "sync", "--server", homes.url, "--token", String(repeating: "0", count: 64))
        XCTAssertEqual(wrong.status, 77, wrong.stderr)
        XCTAssertEqual(wrong.errorCode, "unauthorized")
        homes.sync(0)
        XCTAssertEqual(homes.hub.run("token", "revoke", "device0").status, 0)
        XCTAssertEqual(device.run("sync").status, 77, "a revoked token")

        let before = SyncHomes.state(of: device)
        // A port nothing listens on: the hub stopped.
        _ = homes.serving.stop(signal: SIGTERM)
        let away = device.run("--json", "sync")
        XCTAssertEqual(away.status, 69, away.stderr)
        XCTAssertEqual(away.errorCode, "unavailable")
        XCTAssertEqual(SyncHomes.state(of: device), before, "nothing changed here")
        XCTAssertEqual(device.run("sync", "--server", "ftp://example", "--token", "x").status, 64)
        XCTAssertEqual(device.run("sync", "--server", homes.url).status, 64, "--server needs --token")
    }

    func testSyncIsGatedByThisDevicesOwnOnboarding() throws {
        let homes = try SyncHomes(devices: 0)
        let fresh = Memoapp(home: homes.folder.appending("fresh"))
        let result = fresh.run("sync", "--server", homes.url, "--token", "x")
        XCTAssertEqual(result.status, 3, "a first run is per device: \(result.stderr)")
    }

    func testANewEmptyDeviceRemovesNothingAndGetsEverything() throws {
        let homes = try SyncHomes(devices: 1)
        for index in 0..<5 { XCTAssertEqual(homes.devices[0].run("todo", "add", "item \(index)").status, 0) }
        homes.sync(0)
        let fresh = try homes.addDevice()
        let report = homes.sync(1).object()
        XCTAssertEqual(report["pushed"] as? Int, 0, "a new, empty device sends nothing")
        XCTAssertEqual(SyncHomes.todos(fresh).count, 5)
        XCTAssertEqual(SyncHomes.todos(homes.hub).count, 5)
        homes.syncAll()
        homes.assertConverged()
    }

    func testRemovingMoreThanHalfAsksForForce() throws {
        let homes = try SyncHomes(devices: 1)
        let device = homes.devices[0]
        for index in 0..<12 { XCTAssertEqual(device.run("todo", "add", "item \(index)").status, 0) }
        homes.sync(0)
        XCTAssertEqual(device.run("todo", "rm", "1-10").status, 0)
        let refused = device.run("--json", "sync")
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--force"), refused.stderr)
        XCTAssertEqual(SyncHomes.todos(homes.hub).count, 12, "nothing was removed on the hub")
        XCTAssertEqual(device.run("sync", "--force").status, 0)
        XCTAssertEqual(SyncHomes.todos(homes.hub).count, 2)
    }
}

/// `memoapp sync --watch` on two devices: a change made on one reaches the
/// other without anyone running a sync.
final class SyncWatchEndToEndTests: XCTestCase {
    func testAChangeOnOneWatchingDeviceReachesTheOther() throws {
        let homes = try SyncHomes(devices: 2)
        homes.syncAll()
        var watchers: [Process] = []
        defer { for watcher in watchers where watcher.isRunning { watcher.terminate(); watcher.waitUntilExit() } }
        for device in homes.devices {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
            process.arguments = ["sync", "--watch"]
            process.environment = device.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            watchers.append(process)
        }
        XCTAssertEqual(homes.devices[0].run("todo", "add", "seen on the other side").status, 0)
        XCTAssertTrue(waitUntil { SyncHomes.todos(homes.devices[1]).contains { $0["title"] as? String == "seen on the other side" } },
                      "the other watching device got it")
        XCTAssertEqual(homes.devices[1].run("memo", "add", "and back").status, 0)
        XCTAssertTrue(waitUntil { SyncHomes.memos(homes.devices[0]).contains { $0["text"] as? String == "and back" } })
        XCTAssertTrue(watchers.allSatisfy(\.isRunning), "watchers keep running")
    }

    /// Polls `condition` for up to 30 s: a generous bound, never a race.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<300 {
            if condition() { return true }
            usleep(100_000)
        }
        return false
    }
}
