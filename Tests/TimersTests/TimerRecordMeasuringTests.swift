import MemoCore
import Timers
import XCTest

/// Elapsed, remaining and end times computed from spans, with pauses, wall-clock
/// jumps and reboots driven by a manual clock.
final class TimerRecordMeasuringTests: XCTestCase {
    private let clock = ManualTimerClock()

    private func start(_ duration: Double?) -> TimerRecord {
        var timer = TimerRecord.started(duration: duration, label: nil, at: clock.reading())
        timer.id = 1
        return timer
    }

    private func exact(_ seconds: Double) -> MeasuredDuration {
        MeasuredDuration(seconds: seconds, isEstimated: false)
    }

    private func estimated(_ seconds: Double) -> MeasuredDuration {
        MeasuredDuration(seconds: seconds, isEstimated: true)
    }

    func testARunningCountdownCountsDownWithTheBootClock() {
        let timer = start(300)
        clock.advance(by: 120.25)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(120.25))
        XCTAssertEqual(timer.remaining(at: clock.reading()), exact(179.75))
        XCTAssertEqual(timer.endTime(at: clock.reading()), timer.createdAt.adding(seconds: 300))
    }

    func testAStopwatchHasElapsedTimeButNoRemainingOrEnd() {
        let timer = start(nil)
        clock.advance(by: 42)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(42))
        XCTAssertNil(timer.remaining(at: clock.reading()))
        XCTAssertNil(timer.endTime(at: clock.reading()))
    }

    func testPausesAreLeftOutOfElapsedTime() throws {
        var timer = start(600)
        clock.advance(by: 100)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.advance(by: 1000)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(100), "a paused timer does not move")
        XCTAssertNil(timer.endTime(at: clock.reading()), "a paused countdown has no end yet")
        timer = try timer.applying(.resume, at: clock.reading())
        clock.advance(by: 50)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.advance(by: 7)
        timer = try timer.applying(.resume, at: clock.reading())
        clock.advance(by: 25)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(175))
        XCTAssertEqual(timer.remaining(at: clock.reading()), exact(425))
        XCTAssertEqual(timer.endTime(at: clock.reading()), clock.reading().wall.adding(seconds: 425))
    }

    func testWallClockJumpsWhileRunningDoNotMoveElapsedTime() {
        let timer = start(nil)
        clock.advance(by: 10)
        clock.jumpWall(by: 3600)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(10))
        clock.advance(by: 5)
        clock.jumpWall(by: -86_400)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(15))
    }

    func testWallClockJumpsWhilePausedDoNotMoveElapsedTime() throws {
        var timer = start(60)
        clock.advance(by: 10)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.jumpWall(by: -7200)
        clock.advance(by: 30)
        timer = try timer.applying(.resume, at: clock.reading())
        clock.advance(by: 20)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(30))
        XCTAssertEqual(timer.remaining(at: clock.reading()), exact(30))
    }

    func testTheProjectedEndFollowsACorrectedWallClock() {
        let timer = start(300)
        clock.advance(by: 100)
        clock.jumpWall(by: 3600)
        XCTAssertEqual(timer.endTime(at: clock.reading()), clock.reading().wall.adding(seconds: 200))
    }

    func testARebootWhileRunningFallsBackToTheWallClockAndSaysEstimated() {
        let timer = start(nil)
        clock.advance(by: 100)
        clock.reboot(downtime: 50)
        clock.advance(by: 10)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), estimated(160))
    }

    func testAfterARebootSettlingMeasuresOnTheNewBootClock() {
        var timer = start(nil)
        clock.advance(by: 100)
        clock.reboot(downtime: 50)
        timer = timer.settled(at: clock.reading())
        XCTAssertEqual(timer.spans.count, 2)
        XCTAssertEqual(timer.spans[1].start.bootID, clock.reading().bootID)
        clock.advance(by: 10)
        clock.jumpWall(by: 999)  // only the boot clock counts from here
        XCTAssertEqual(timer.elapsed(at: clock.reading()), estimated(160))
        XCTAssertEqual(timer.consistencyProblems, [])
    }

    func testARebootWhilePausedLeavesEveryFigureExact() throws {
        var timer = start(600)
        clock.advance(by: 100)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.reboot(downtime: 3600)
        timer = try timer.applying(.resume, at: clock.reading())
        clock.advance(by: 20)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(120))
        XCTAssertEqual(timer.remaining(at: clock.reading()), exact(480))
    }

    func testAWallClockSetBackAcrossARebootCountsAsNoTimeRatherThanNegative() {
        let timer = start(nil)
        clock.advance(by: 30)
        clock.reboot(downtime: -500)
        XCTAssertEqual(timer.elapsed(at: clock.reading()), estimated(0))
    }

    func testACountdownThatEndedUnobservedIsFinishedAtItsTrueEnd() {
        let timer = start(90)
        let started = clock.reading().wall
        clock.advance(by: 1000)
        let settled = timer.settled(at: clock.reading())
        XCTAssertEqual(settled.state, .finished)
        XCTAssertEqual(settled.endedAt, started.adding(seconds: 90))
        XCTAssertEqual(settled.elapsed(at: clock.reading()), exact(90))
        XCTAssertEqual(settled.remaining(at: clock.reading()), exact(0))
        XCTAssertEqual(settled.endTime(at: clock.reading()), started.adding(seconds: 90))
        XCTAssertEqual(timer.elapsed(at: clock.reading()), exact(90), "unsettled figures are capped too")
        XCTAssertEqual(timer.remaining(at: clock.reading()), exact(0))
        XCTAssertEqual(settled.consistencyProblems, [])
        XCTAssertEqual(settled.spans[0].measured(until: clock.reading()), exact(90))
    }

    func testACountdownWithPausesFinishesAtResumePlusWhatWasLeft() throws {
        var timer = start(60)
        clock.advance(by: 20)
        timer = try timer.applying(.pause, at: clock.reading())
        clock.advance(by: 300)
        timer = try timer.applying(.resume, at: clock.reading())
        let resumed = clock.reading().wall
        clock.advance(by: 3600)
        let settled = timer.settled(at: clock.reading())
        XCTAssertEqual(settled.state, .finished)
        XCTAssertEqual(settled.endedAt, resumed.adding(seconds: 40))
    }

    func testACountdownEndingUnobservedAfterAWallJumpReportsTheEndOnTheCurrentWallClock() {
        let timer = start(60)
        clock.advance(by: 10)
        clock.jumpWall(by: 3600)
        clock.advance(by: 100)
        let settled = timer.settled(at: clock.reading())
        // It ended 50 s ago on the boot clock; the wall clock now reads 3600 s ahead.
        XCTAssertEqual(settled.endedAt, clock.reading().wall.adding(seconds: -50))
        XCTAssertEqual(settled.elapsed(at: clock.reading()), exact(60))
    }

    func testACountdownThatEndedWhileTheMachineWasOffIsFinishedAndEstimated() {
        let timer = start(60)
        let started = clock.reading().wall
        clock.advance(by: 10)
        clock.reboot(downtime: 600)
        let settled = timer.settled(at: clock.reading())
        XCTAssertEqual(settled.state, .finished)
        XCTAssertEqual(settled.endedAt, started.adding(seconds: 60))
        XCTAssertEqual(settled.elapsed(at: clock.reading()), estimated(60))
        XCTAssertEqual(settled.consistencyProblems, [])
    }

    func testACountdownStillRunningAfterARebootKeepsCountingOnTheNewBoot() {
        var timer = start(3600)
        clock.advance(by: 600)
        clock.reboot(downtime: 60)
        timer = timer.settled(at: clock.reading())
        XCTAssertEqual(timer.state, .running)
        XCTAssertEqual(timer.remaining(at: clock.reading()), estimated(2940))
        clock.advance(by: 40)
        clock.jumpWall(by: -3000)
        XCTAssertEqual(timer.remaining(at: clock.reading()), estimated(2900))
    }

    func testSettlingLeavesPausedAndEndedTimersAndSameBootRunningOnesAlone() throws {
        let running = start(nil)
        clock.advance(by: 5)
        XCTAssertEqual(running.settled(at: clock.reading()), running)
        let paused = try running.applying(.pause, at: clock.reading())
        clock.reboot(downtime: 10)
        XCTAssertEqual(paused.settled(at: clock.reading()), paused)
        let stopped = try paused.applying(.stop, at: clock.reading())
        clock.advance(by: 100)
        XCTAssertEqual(stopped.settled(at: clock.reading()), stopped)
    }
}
