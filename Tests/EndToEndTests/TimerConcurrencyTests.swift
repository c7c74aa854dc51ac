import Foundation
import SQLite
import TestSupport
import XCTest

/// Several memoapp processes acting on one timer at once.
final class TimerConcurrencyTests: XCTestCase {
    func testTwoProcessesPausingAndResumingAtOnceLeaveAStateSomeSerialOrderGives() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        memoapp.onboard()
        _ = memoapp.run(["timer", "start", "1h"])

        let rounds = 60
        let lock = NSLock()
        var successes: [String: Int] = ["pause": 0, "resume": 0]
        var unexpected: [String] = []
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for round in 0..<rounds {
                // Worker 0 starts with pause, worker 1 with resume, so they collide.
                let action = (round + worker) % 2 == 0 ? "pause" : "resume"
                let result = memoapp.run(["timer", action, "1"])
                lock.withLock {
                    switch result.status {
                    case 0: successes[action, default: 0] += 1
                    case 5: break  // refused: the other process got there first
                    default: unexpected.append("\(action): \(result.status) \(result.stderr)")
                    }
                }
            }
        }
        XCTAssertEqual(unexpected, [])

        let status = memoapp.run(["timer", "status", "1", "--json"])
        XCTAssertEqual(status.status, 0, "the row must load (a damaged one exits 74): \(status.stderr)")
        let state = try XCTUnwrap(status.object()["state"] as? String)
        let pauses = successes["pause"] ?? 0, resumes = successes["resume"] ?? 0
        // In any serial order, successful pauses and resumes alternate, starting from running.
        XCTAssertEqual(pauses - resumes, state == "paused" ? 1 : 0, "pauses \(pauses), resumes \(resumes), \(state)")
        XCTAssertGreaterThan(pauses, 0)

        let connection = try Connection(path: memoapp.home + "/memoapp.db")
        let spans = try connection.query(
            "SELECT start_boot, end_boot, end_boot_id IS NULL FROM timer_spans WHERE timer_id = 1 ORDER BY position"
        ) { (start: $0.double(0), end: $0.optionalDouble(1), isOpen: $0.bool(2)) }
        XCTAssertEqual(spans.count, resumes + 1, "one span per start or resume")
        XCTAssertEqual(spans.filter(\.isOpen).count, state == "running" ? 1 : 0)
        XCTAssertEqual(spans.dropLast().filter(\.isOpen).count, 0, "only the last span may be open")
        for (index, span) in spans.enumerated() {
            if let end = span.end { XCTAssertGreaterThanOrEqual(end, span.start, "span \(index)") }
            if index > 0, let previousEnd = spans[index - 1].end {
                XCTAssertGreaterThanOrEqual(span.start, previousEnd, "span \(index) overlaps the one before")
            }
        }
    }
}
