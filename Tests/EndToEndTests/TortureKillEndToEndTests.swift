import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 1: memoapp killed with SIGKILL at
/// moments spread over a write, then checked: the database is intact, a
/// multi-id change is all there or not at all, a memo is whole or absent,
/// and what reported success is there. (The kill moments vary with the
/// machine; what is checked does not.)
final class TortureKillEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    /// From before memoapp starts to after it usually ends.
    let delays: [TimeInterval] = [0, 0.002, 0.004, 0.006, 0.008, 0.012, 0.02, 0.05]

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    func testKilledMultiIDTodoDoneChangesAllOrNone() throws {
        for index in 1...(delays.count * 3) {
            XCTAssertEqual(app.run("todo", "add", "pool \(index)").status, 0)
        }
        for (round, delay) in delays.enumerated() {
            let ids = (1...3).map { round * 3 + $0 }
            let (status, _) = try app.runKilled(["todo", "done"] + ids.map(String.init), after: delay)
            app.assertIntegrity("round \(round)")
            let done = sqlite3(app.databasePath, "SELECT count(*) FROM todos WHERE id IN (\(ids.map(String.init).joined(separator: ","))) AND done_at IS NOT NULL")
            XCTAssertTrue(done == "0" || done == "3", "round \(round): \(done) of 3 done after a kill")
            if status == 0 { XCTAssertEqual(done, "3", "round \(round) reported success") }
        }
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testKilledMemoAddStoresTheWholeTextOrNothing() throws {
        let text = "whole " + String(repeating: "메모 본문 text ", count: 40_000)
        let input = folder.appending("memo.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        var reported = 0
        for (round, delay) in delays.enumerated() {
            let (status, stdout) = try app.runKilled(["memo", "add", "--json"], after: delay, input: input)
            app.assertIntegrity("round \(round)")
            let memos = app.run("memo", "list", "--json").array()
            for memo in memos {
                let shown = app.run("memo", "show", String(memo["id"] as? Int ?? 0), "--json").object()
                XCTAssertEqual(shown["text"] as? String, text, "round \(round): a memo is not whole")
            }
            if status == 0 {
                reported += 1
                let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: stdout) as? [String: Any])?["id"] as? Int)
                XCTAssertTrue(memos.contains { $0["id"] as? Int == id }, "round \(round): reported memo \(id) is gone")
            }
        }
        XCTAssertGreaterThanOrEqual(app.run("memo", "list", "--json").array().count, reported)
    }

    func testKilledVoiceImportLeavesNoRowWithoutItsFileAndTheNextImportCleansUp() throws {
        // A minute of 48 kHz stereo (11 MB): long enough to be killed part way.
        let second = HandMadeWAV.bytes(samples: (0..<96_000).map { Int16(truncatingIfNeeded: ($0 * 37) % 20_000 - 10_000) },
                                       channels: 2, rate: 48_000)
        var long = HandMadeWAV.bytes(samples: [], channels: 2, rate: 48_000)
        for _ in 0..<60 { long.append(second.suffix(from: 44)) }
        let dataSize = UInt32(long.count - 44)
        long.replaceSubrange(4..<8, with: withUnsafeBytes(of: (dataSize + 36).littleEndian) { Data($0) })
        long.replaceSubrange(40..<44, with: withUnsafeBytes(of: dataSize.littleEndian) { Data($0) })
        let library = app.home + "/voice"
        for (round, delay) in delays.enumerated() {
            let copy = folder.appending("import-\(round).wav")
            var bytes = long
            bytes[bytes.count - 2] = UInt8(round)  // other bytes each round: never a duplicate
            try bytes.write(to: URL(fileURLWithPath: copy))
            let (status, stdout) = try app.runKilled(["voice", "import", copy, "--json"], after: delay)
            app.assertIntegrity("round \(round)")
            let rows = sqlite3(app.databasePath, "SELECT id, file_name FROM voice_memos").split(separator: "\n")
                .map { $0.split(separator: "|").map(String.init) }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []
            for row in rows { XCTAssertTrue(files.contains(row[1]), "round \(round): memo file \(row[1]) is missing") }
            if status == 0 {
                let id = (try JSONSerialization.jsonObject(with: stdout) as? [String: Any])?["id"] as? Int
                XCTAssertTrue(rows.contains { $0[0] == String(id ?? -1) }, "round \(round): reported memo is gone")
            }
        }
        // Leftovers (temporaries, a renamed file not yet committed) go with the
        // next writing command, once older than the module's grace period.
        try ageLeftovers(in: library)
        let small = folder.appending("small.wav")
        try HandMadeWAV.bytes(samples: [1, 2, 3, 4, 5, 6, 7, 8], channels: 1, rate: 8000).write(to: URL(fileURLWithPath: small))
        XCTAssertEqual(app.run("voice", "import", small).status, 0)
        let rows = Set(sqlite3(app.databasePath, "SELECT file_name FROM voice_memos").split(separator: "\n").map(String.init))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: library))
        XCTAssertEqual(files, rows, "voice/ and the rows differ once the next command ran")
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testKilledTimerStartAndPauseLeaveAWholeTimer() throws {
        for (round, delay) in delays.enumerated() {
            let (status, _) = try app.runKilled(["timer", "start", "10m", "--label", "round-\(round)"], after: delay)
            app.assertIntegrity("start, round \(round)")
            let timers = app.run("timer", "list", "--all", "--json").array().filter { $0["label"] as? String == "round-\(round)" }
            XCTAssertLessThanOrEqual(timers.count, 1)
            if status == 0 { XCTAssertEqual(timers.count, 1, "round \(round): reported timer is gone") }
            guard let id = timers.first?["id"] as? Int else { continue }
            let (paused, _) = try app.runKilled(["timer", "pause", String(id)], after: delay)
            app.assertIntegrity("pause, round \(round)")
            let state = app.run("timer", "status", String(id), "--json").object()["state"] as? String
            XCTAssertTrue(state == "running" || state == "paused", "round \(round): \(state ?? "nil")")
            if paused == 0 { XCTAssertEqual(state, "paused") }
        }
        XCTAssertEqual(app.doctor().status, 0)
    }
}
