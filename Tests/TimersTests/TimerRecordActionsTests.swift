import MemoCore
import Timers
import XCTest

/// The pure state machine: every action in every state of both kinds.
final class TimerRecordActionsTests: XCTestCase {
    private let clock = ManualTimerClock()

    /// A saved-looking timer of `kind` brought into `state` by real actions.
    private func timer(_ kind: TimerKind, in state: TimerState) throws -> TimerRecord {
        var timer = TimerRecord.started(duration: kind == .countdown ? 60 : nil, label: nil, at: clock.reading())
        timer.id = 7
        clock.advance(by: 5)
        switch state {
        case .running: break
        case .paused: timer = try timer.applying(.pause, at: clock.reading())
        case .cancelled: timer = try timer.applying(.cancel, at: clock.reading())
        case .stopped: timer = try timer.applying(.stop, at: clock.reading())
        case .finished:
            clock.advance(by: 60)
            timer = timer.settled(at: clock.reading())
        }
        XCTAssertEqual(timer.state, state)
        XCTAssertEqual(timer.consistencyProblems, [])
        return timer
    }

    /// nil: refused with invalid_state.
    private let expected: [TimerKind: [TimerState: [TimerAction: TimerState?]]] = [
        .countdown: [
            .running: [.pause: .paused, .resume: nil, .cancel: .cancelled, .lap: nil, .stop: nil],
            .paused: [.pause: nil, .resume: .running, .cancel: .cancelled, .lap: nil, .stop: nil],
            .finished: [.pause: nil, .resume: nil, .cancel: nil, .lap: nil, .stop: nil],
            .cancelled: [.pause: nil, .resume: nil, .cancel: nil, .lap: nil, .stop: nil],
        ],
        .stopwatch: [
            .running: [.pause: .paused, .resume: nil, .cancel: .cancelled, .lap: .running, .stop: .stopped],
            .paused: [.pause: nil, .resume: .running, .cancel: .cancelled, .lap: nil, .stop: .stopped],
            .cancelled: [.pause: nil, .resume: nil, .cancel: nil, .lap: nil, .stop: nil],
            .stopped: [.pause: nil, .resume: nil, .cancel: nil, .lap: nil, .stop: nil],
        ],
    ]

    func testEveryActionInEveryStateIsAllowedOrRefusedAsTheTableSays() throws {
        var checked = 0
        for (kind, states) in expected {
            for (state, actions) in states {
                XCTAssertEqual(Set(actions.keys), Set(TimerAction.allCases))
                for (action, outcome) in actions {
                    let before = try timer(kind, in: state)
                    clock.advance(by: 1)
                    if let outcome {
                        let after = try before.applying(action, at: clock.reading())
                        XCTAssertEqual(after.state, outcome, "\(kind) \(state) \(action)")
                        XCTAssertEqual(after.consistencyProblems, [], "\(kind) \(state) \(action)")
                    } else {
                        let error = assertMemoError(.invalidState) { try before.applying(action, at: clock.reading()) }
                        XCTAssertTrue(error?.message.en.contains("timer 7") ?? false, "\(String(describing: error))")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 2 * 4 * 5)
    }

    func testRefusalNamesTheStateInBothLanguages() throws {
        let paused = try timer(.countdown, in: .paused)
        let again = assertMemoError(.invalidState) { try paused.applying(.pause, at: clock.reading()) }
        XCTAssertEqual(again?.message.en, "Cannot pause timer 7: it is already paused.")
        XCTAssertEqual(again?.message.ko, "7번 타이머를 일시정지할 수 없습니다: 이미 일시정지된 상태입니다.")

        let finished = try timer(.countdown, in: .finished)
        let resume = assertMemoError(.invalidState) { try finished.applying(.resume, at: clock.reading()) }
        XCTAssertEqual(resume?.message.en, "Cannot resume timer 7: it is finished.")
        XCTAssertEqual(resume?.message.ko, "7번 타이머를 재개할 수 없습니다: 완료된 상태입니다.")

        let running = try timer(.stopwatch, in: .running)
        let resumeRunning = assertMemoError(.invalidState) { try running.applying(.resume, at: clock.reading()) }
        XCTAssertEqual(resumeRunning?.message.en, "Cannot resume timer 7: it is already running.")

        let stopped = try timer(.stopwatch, in: .stopped)
        let cancel = assertMemoError(.invalidState) { try stopped.applying(.cancel, at: clock.reading()) }
        XCTAssertEqual(cancel?.message.en, "Cannot cancel timer 7: it is stopped.")
    }

    func testStopwatchActionsOnACountdownNameTheKind() throws {
        let countdown = try timer(.countdown, in: .running)
        let lap = assertMemoError(.invalidState) { try countdown.applying(.lap, at: clock.reading()) }
        XCTAssertTrue(lap?.message.en.contains("it is a countdown") ?? false)
        XCTAssertTrue(lap?.message.ko.contains("카운트다운") ?? false)
        let stop = assertMemoError(.invalidState) { try countdown.applying(.stop, at: clock.reading()) }
        XCTAssertTrue(stop?.message.en.contains("cancel ends a countdown early") ?? false)
    }

    func testALapNeverStandsBeforeTheLapAheadOfIt() throws {
        var stopwatch = try timer(.stopwatch, in: .running)
        // A lap another device took, measured on its clocks as later than
        // this one's measure of now.
        stopwatch.laps.append(Lap(number: 1, elapsed: 9, isEstimated: false, recordedAt: clock.reading().wall))
        let lapped = try stopwatch.applying(.lap, at: clock.reading())
        XCTAssertEqual(lapped.laps.map(\.elapsed), [9, 9])
        XCTAssertTrue(lapped.laps[1].isEstimated, "not what this device measured")
        XCTAssertEqual(lapped.consistencyProblems, [])
    }

    func testPauseClosesTheSpanAndResumeOpensANewOne() throws {
        let running = try timer(.stopwatch, in: .running)
        let pausedAt = clock.reading()
        let paused = try running.applying(.pause, at: pausedAt)
        XCTAssertEqual(paused.spans.count, 1)
        XCTAssertEqual(paused.spans[0].end, pausedAt)
        clock.advance(by: 100)
        let resumedAt = clock.reading()
        let resumed = try paused.applying(.resume, at: resumedAt)
        XCTAssertEqual(resumed.spans.count, 2)
        XCTAssertEqual(resumed.spans[1], RunSpan(start: resumedAt))
    }

    func testCancelAndStopRecordWhenTheTimerEnded() throws {
        let running = try timer(.stopwatch, in: .running)
        let now = clock.reading()
        let stopped = try running.applying(.stop, at: now)
        XCTAssertEqual(stopped.endedAt, now.wall)
        XCTAssertFalse(stopped.spans.contains { $0.isOpen })

        let paused = try timer(.countdown, in: .paused)
        clock.advance(by: 3)
        let cancelled = try paused.applying(.cancel, at: clock.reading())
        XCTAssertEqual(cancelled.endedAt, clock.reading().wall)
        XCTAssertEqual(cancelled.spans, paused.spans, "cancelling a paused timer adds no running time")
    }

    func testLapRecordsTheElapsedTimeAndNumbersLapsInOrder() throws {
        var stopwatch = try timer(.stopwatch, in: .running)  // 5 s in
        stopwatch = try stopwatch.applying(.lap, at: clock.reading())
        clock.advance(by: 2.5)
        stopwatch = try stopwatch.applying(.lap, at: clock.reading())
        XCTAssertEqual(stopwatch.laps.map(\.number), [1, 2])
        XCTAssertEqual(stopwatch.laps.map(\.elapsed), [5, 7.5])
        XCTAssertEqual(stopwatch.laps.map(\.isEstimated), [false, false])
        XCTAssertEqual(stopwatch.laps[1].recordedAt, clock.reading().wall)
        XCTAssertEqual(stopwatch.state, .running)
    }

    func testPausingACountdownWhoseTimeRanOutIsRefusedAsFinished() throws {
        let running = try timer(.countdown, in: .running)  // 5 s of 60 elapsed
        clock.advance(by: 55)
        let error = assertMemoError(.invalidState) { try running.applying(.pause, at: clock.reading()) }
        XCTAssertTrue(error?.message.en.contains("finished") ?? false, "\(String(describing: error))")
    }

    func testLabelsAreTrimmedAndBlankOnesDropped() throws {
        XCTAssertEqual(try TimerRecord.label(from: "  tea  "), "tea")
        XCTAssertNil(try TimerRecord.label(from: "   "))
        XCTAssertNil(try TimerRecord.label(from: nil))
        XCTAssertEqual(try TimerRecord.label(from: "라면 3분"), "라면 3분")
    }

    func testLabelsWithControlCharactersOrTooLongAreRefused() {
        assertMemoError(.usage) { try TimerRecord.label(from: "two\nlines") }
        assertMemoError(.usage) { try TimerRecord.label(from: "bell\u{7}") }
        assertMemoError(.usage) { try TimerRecord.label(from: "esc\u{1B}[31m") }
        assertMemoError(.usage) { try TimerRecord.label(from: String(repeating: "가", count: 201)) }
        XCTAssertNoThrow(try TimerRecord.label(from: String(repeating: "가", count: 200)))
    }
}
