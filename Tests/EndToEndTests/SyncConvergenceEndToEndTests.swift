import Foundation
import TestSupport
import XCTest

/// Random changes of every kind on three devices and on the hub itself,
/// synced in random orders: afterwards every device's to-dos, memos, timers
/// and voice memos equal the hub's (by uid), and every word any device wrote into a memo is in
/// some memo (merged, or in a conflict copy). Each seed prints itself and
/// can be run again exactly.
final class SyncConvergenceEndToEndTests: XCTestCase {
    func testRandomChangesOnThreeDevicesConverge() throws {
        for seed: UInt64 in [1, 2, 3, 20261207] {
            try converge(seed: seed)
        }
    }

    private func converge(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let homes = try SyncHomes(devices: 3)
        let everyone = homes.devices + [homes.hub]
        var written: [String] = []
        var counter = 0
        func word() -> String {
            counter += 1
            return "w\(seed)x\(counter)"
        }
        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }

        for step in 0..<60 {
            let index = Int(random.next() % UInt64(everyone.count))
            let home = everyone[index]
            let roll = random.next() % 16
            let todos = SyncHomes.todos(home)
            let todo = pick(todos).map { "\($0["id"] as? Int ?? 0)" }
            switch roll {
            case 0, 1:
                XCTAssertEqual(home.run("todo", "add", "todo \(word())", "--tag", pick(["a", "b", "c"])!).status, 0)
            case 2 where todo != nil:
                XCTAssertEqual(home.run("todo", "edit", todo!, "--title", "retitled \(word())").status, 0)
            case 3 where todo != nil:
                XCTAssertEqual(home.run("todo", "edit", todo!, "--tag", pick(["a", "b", "c", "d"])!,
                                        "--untag", pick(["a", "b", "c", "d"])!).status, 0)
            case 4 where todo != nil:
                XCTAssertEqual(home.run("todo", "edit", todo!, "--priority", pick(["high", "low", "none"])!).status, 0)
            case 5 where todo != nil:
                _ = home.run("todo", "done", todo!)
            case 6 where todo != nil:
                XCTAssertEqual(home.run("todo", "rm", todo!).status, 0)
            case 7:
                let first = word()
                written.append(first)
                let text = "first \(first)\nsecond\nthird"
                XCTAssertEqual(home.run("memo", "add", text).status, 0)
            case 8, 9, 10:
                let memos = SyncHomes.memos(home)
                guard let memo = pick(memos), let text = memo["text"] as? String else { break }
                var lines = text.components(separatedBy: "\n")
                let added = word()
                written.append(added)
                if random.next() % 2 == 0 {
                    lines.append("line \(added)")
                } else {
                    let line = Int(random.next() % UInt64(lines.count))
                    lines[line] += " \(added)"
                }
                XCTAssertEqual(home.run("memo", "edit", "\(memo["id"] as? Int ?? 0)", "--text",
                                        lines.joined(separator: "\n")).status, 0)
            case 12:
                XCTAssertEqual(home.run("timer", "start", "--label", "timer \(word())").status, 0)
            case 13:
                let timers = SyncHomes.json(home, "timer", "list") as? [[String: Any]] ?? []
                guard let timer = pick(timers.filter { $0["kind"] as? String == "stopwatch" }) else { break }
                let action = timer["state"] as? String == "running" ? pick(["lap", "lap", "pause", "stop"])! : "resume"
                XCTAssertEqual(home.run("timer", action, "\(timer["id"] as? Int ?? 0)").status, 0)
            case 14:
                let audio = VoiceHome.fixture(pick(["beep.mp3", "chord-stereo-22k.flac"])!)
                XCTAssertEqual(home.run("voice", "import", audio, "--allow-duplicate", "--title", "voice \(word())").status, 0)
            case 15:
                let voice = SyncHomes.json(home, "voice", "list") as? [[String: Any]] ?? []
                guard let memo = pick(voice).map({ "\($0["id"] as? Int ?? 0)" }) else { break }
                if random.next() % 3 == 0 {
                    XCTAssertEqual(home.run("voice", "rm", memo).status, 0)
                } else {
                    XCTAssertEqual(home.run("voice", "edit", memo, "--title", "renamed \(word())", "--tag",
                                            pick(["a", "b"])!).status, 0)
                }
            default:
                if index < homes.devices.count { homes.sync(index) }
            }
            _ = step
        }
        homes.syncAll()
        homes.syncAll()
        homes.assertConverged("seed \(seed)")
        let everything = SyncHomes.memos(homes.hub).compactMap { $0["text"] as? String }.joined(separator: "\n")
        for word in written {
            XCTAssertTrue(everything.contains(word), "seed \(seed): \(word) was written and is in no memo")
        }
    }
}
