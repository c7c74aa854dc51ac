import Foundation
import MemoKit
import XCTest

/// The shared sleeping loop: a step runs at start, again when poked or when
/// the time it asked for has passed, never while it sleeps with nothing
/// ahead, and stop ends it.
final class WakeLoopTests: XCTestCase {
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        let stepped = DispatchSemaphore(value: 0)
        func step() { lock.withLock { value += 1 }; stepped.signal() }
        var count: Int { lock.withLock { value } }
    }

    func testAStepWithNothingAheadSleepsUntilPokedAndStopEndsTheThread() {
        let counter = Counter()
        let loop = WakeLoop()
        loop.start { counter.step(); return nil }
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 30), .success, "the first look runs at start")
        // Nothing ahead: no second step comes by itself (a polling loop would
        // show here; the wait is only long enough to catch one).
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 0.3), .timedOut)
        loop.poke()
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 30), .success, "a poke wakes it")
        loop.stop()
        let stepsAtStop = counter.count
        loop.poke()
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 0.2), .timedOut, "stopped for good")
        XCTAssertEqual(counter.count, stepsAtStop)
    }

    func testAStepRunsAgainWhenTheTimeItAskedForHasPassedAndAFailureIsRetried() {
        let counter = Counter()
        let loop = WakeLoop(retryDelay: 0.01)
        struct Failure: Error {}
        loop.start {
            counter.step()
            if counter.count == 2 { throw Failure() }
            return counter.count < 4 ? 0.01 : nil
        }
        for look in 1...4 {
            XCTAssertEqual(counter.stepped.wait(timeout: .now() + 30), .success, "look \(look)")
        }
        loop.stop()
        XCTAssertEqual(counter.count, 4)
    }

    /// A burst of pokes within the spacing (a minute here) is one look, not
    /// one each; the look a step asked for still comes when asked.
    func testPokesWithinTheSpacingShareOneLookButNeverDelayTheAskedForOne() {
        let counter = Counter()
        let loop = WakeLoop(pokeSpacing: 60)
        loop.start { counter.step(); return nil }
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 30), .success, "the first look runs at start")
        for _ in 0..<100 { loop.poke() }
        // The burst is answered once the minute since the first look is over:
        // nothing more comes meanwhile.
        XCTAssertEqual(counter.stepped.wait(timeout: .now() + 0.3), .timedOut)
        XCTAssertEqual(counter.count, 1)
        loop.stop()
        XCTAssertEqual(counter.count, 1, "a stop ends the wait without a look")

        // A step that asks to look again in 50 ms is looked at then, however
        // long the spacing, even with a poke waiting.
        let timed = Counter()
        let timedLoop = WakeLoop(pokeSpacing: 60)
        timedLoop.start {
            timed.step()
            return timed.count == 1 ? 0.05 : nil
        }
        XCTAssertEqual(timed.stepped.wait(timeout: .now() + 30), .success)
        timedLoop.poke()
        XCTAssertEqual(timed.stepped.wait(timeout: .now() + 30), .success, "the asked-for look comes")
        timedLoop.stop()
        XCTAssertEqual(timed.count, 2)
    }
}
