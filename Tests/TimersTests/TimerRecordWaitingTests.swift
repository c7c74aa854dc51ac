import MemoCore
import Timers
import XCTest

final class TimerRecordWaitingTests: XCTestCase {
    private let clock = ManualTimerClock()

    private func start(_ duration: Double?) -> TimerRecord {
        var timer = TimerRecord.started(duration: duration, label: nil, at: clock.reading())
        timer.id = 3
        return timer
    }

    func testFarFromTheEndTheWaiterSleepsOnlyUntilTheNextCheck() throws {
        let timer = start(10)
        let now = clock.reading()
        XCTAssertEqual(try timer.nextWaitStep(at: now, checkInterval: 0.25),
                       .sleep(untilBoot: now.boot + 0.25, isEnd: false))
    }

    func testNearTheEndTheWaiterSleepsExactlyToTheEnd() throws {
        let timer = start(10)
        clock.advance(by: 9.9)
        let now = clock.reading()
        guard case let .sleep(deadline, isEnd) = try timer.nextWaitStep(at: now, checkInterval: 0.25) else {
            return XCTFail("expected a sleep")
        }
        XCTAssertTrue(isEnd)
        XCTAssertEqual(deadline, now.boot + 0.1, accuracy: 1e-9)
    }

    func testTheEndDeadlineAccountsForPauses() throws {
        var timer = start(1)
        clock.advance(by: 0.5)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.advance(by: 30)
        timer = try timer.applying(.resume, at: clock.reading())
        let now = clock.reading()
        guard case let .sleep(deadline, true) = try timer.nextWaitStep(at: now, checkInterval: 0.75) else {
            return XCTFail("expected the end")
        }
        XCTAssertEqual(deadline, now.boot + 0.5, accuracy: 1e-9)
    }

    func testAPausedCountdownIsCheckedAgainButHasNoEnd() throws {
        var timer = start(1)
        timer = try timer.applying(.pause, at: clock.reading())
        let now = clock.reading()
        XCTAssertEqual(try timer.nextWaitStep(at: now, checkInterval: 0.25), .sleep(untilBoot: now.boot + 0.25, isEnd: false))
    }

    func testAtOrPastTheEndTheWaitIsOverWithTheTrueEndTime() throws {
        let timer = start(2)
        let started = clock.reading().wall
        clock.advance(by: 2)
        XCTAssertEqual(try timer.nextWaitStep(at: clock.reading(), checkInterval: 0.25),
                       .finished(at: started.adding(seconds: 2)))
        clock.advance(by: 5)
        XCTAssertEqual(try timer.nextWaitStep(at: clock.reading(), checkInterval: 0.25),
                       .finished(at: started.adding(seconds: 2)))
    }

    func testACancelledCountdownAbandonsTheWait() throws {
        let timer = try start(5).applying(.cancel, at: clock.reading())
        XCTAssertEqual(try timer.nextWaitStep(at: clock.reading(), checkInterval: 0.25), .abandoned(.cancelled))
    }

    func testWaitingForAStopwatchIsRefused() {
        let error = assertMemoError(.invalidState) { try start(nil).nextWaitStep(at: clock.reading(), checkInterval: 0.25) }
        XCTAssertEqual(error?.message.en, "Timer 3 is a stopwatch; it has no end to wait for.")
    }
}
