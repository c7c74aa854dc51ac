import MemoCore
import MemoKit
import XCTest

/// The watcher's pure decision: what is due at a look, what was missed,
/// what is too old, and when to look next.
final class ReminderScheduleTests: XCTestCase {
    private let now = Timestamp(secondsSince1970: 1_800_000_000)

    private func event(_ kind: ReminderEvent.Kind, id: Int64, secondsFromNow offset: Double) -> ReminderEvent {
        let at = now.adding(seconds: offset)
        return ReminderEvent(kind: kind, itemID: id, itemUID: "uid-\(id)", title: "item \(id)", at: at,
                             occurrence: at.secondsSince1970)
    }

    func testAnEventAtOrBeforeNowIsDueAndTheNearestFutureOneSetsTheWake() {
        let justNow = event(.todoDue, id: 1, secondsFromNow: 0)
        let soon = event(.timerFinished, id: 2, secondsFromNow: 30)
        let later = event(.todoRemind, id: 3, secondsFromNow: 3600)
        let plan = ReminderSchedule.plan(candidates: [later, soon, justNow], told: [], now: now)
        XCTAssertEqual(plan.due, [DueReminder(event: justNow, isMissed: false)])
        XCTAssertEqual(plan.nextAt, soon.at)
        XCTAssertEqual(plan.sleep(from: now), 30.005, accuracy: 0.0001)
    }

    func testAnEventAlreadyToldIsNotToldAgain() {
        let due = event(.todoRemind, id: 1, secondsFromNow: -5)
        let plan = ReminderSchedule.plan(candidates: [due], told: [due.key], now: now)
        XCTAssertEqual(plan.due, [])
        XCTAssertNil(plan.nextAt)
        // The same to-do at a new moment is a new occurrence.
        let moved = event(.todoRemind, id: 1, secondsFromNow: -3)
        XCTAssertEqual(ReminderSchedule.plan(candidates: [moved], told: [due.key], now: now).due.map(\.event), [moved])
    }

    func testAnEventLateByMoreThanAMinuteIsMissedAndOneOlderThanTheBoundIsDropped() {
        let onTime = event(.todoDue, id: 1, secondsFromNow: -ReminderSchedule.lateness)
        let missed = event(.todoDue, id: 2, secondsFromNow: -ReminderSchedule.lateness - 1)
        let oldest = event(.todoDue, id: 3, secondsFromNow: -ReminderSchedule.missedBound)
        let tooOld = event(.todoDue, id: 4, secondsFromNow: -ReminderSchedule.missedBound - 1)
        let plan = ReminderSchedule.plan(candidates: [onTime, missed, oldest, tooOld], told: [], now: now)
        XCTAssertEqual(plan.due, [DueReminder(event: oldest, isMissed: true), DueReminder(event: missed, isMissed: true),
                                  DueReminder(event: onTime, isMissed: false)])
    }

    func testWithNothingAheadTheSleepIsTheLongestAndNeverNegative() {
        let plan = ReminderSchedule.plan(candidates: [], told: [], now: now)
        XCTAssertNil(plan.nextAt)
        XCTAssertEqual(plan.sleep(from: now), ReminderSchedule.longestSleep)
        let farAhead = event(.todoDue, id: 1, secondsFromNow: 86400)
        XCTAssertEqual(ReminderSchedule.plan(candidates: [farAhead], told: [], now: now).sleep(from: now),
                       ReminderSchedule.longestSleep)
        let past = ReminderSchedule.Plan(due: [], nextAt: now.adding(seconds: -10))
        XCTAssertEqual(past.sleep(from: now), 0.005, accuracy: 0.0001)
    }
}
