import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Timers

/// Sends `timer.finished` at the moment a countdown ends, whether or not
/// anyone asks: one thread sleeps until the next end among the running
/// countdowns, wakes, settles the timer (stores it finished) and publishes.
/// A change to the timers (seen by `ChangeFeed`) wakes it early to look
/// again. No polling: with no running countdown it sleeps until woken.
final class TimerAlarm: @unchecked Sendable {
    private let services: ServerServices
    private let stream: EventStream
    /// Every write pokes it (the feed cannot tell a timer's change from a
    /// to-do's without reading): at 2,000 writes a second, looking at each
    /// was a tenth of the server's time. Pokes 10 ms apart share one look;
    /// a countdown's end is still looked at on time (see `WakeLoop`).
    private let loop = WakeLoop(pokeSpacing: 0.01)
    private var announced: Set<Int64> = []
    /// Countdowns that finish after this are announced (ones found already
    /// finished when the server started are not news).
    private let since: Timestamp

    init(services: ServerServices, stream: EventStream) {
        self.services = services
        self.stream = stream
        self.since = services.clock.now()
    }

    func start() {
        loop.start { [self] in try announceEnded() }
    }

    /// Look again: timers changed.
    func poke() {
        loop.poke()
    }

    func stop() {
        loop.stop()
    }

    /// Announces every countdown that has ended and not been announced;
    /// returns the seconds until the next one ends (nil: none is running).
    private func announceEnded() throws -> Double? {
        let candidates = try services.read { try $0.timerStore().countdownIDs(runningOrFinishedSince: since) }
        var nextWait: Double?
        for id in candidates where !announced.contains(id) {
            let snapshot = try services.read { try $0.timerStore().snapshot(ofTimer: id, persistingSettlement: false) }
            if snapshot.timer.state == .finished {
                // Told first, then stored finished: the write is what other
                // clients see as a `timer` change, which should come after.
                announced.insert(id)
                stream.publish(data: JSON.object([("id", .int(id)), ("item", WireFormat.timer(snapshot))]).serialized,
                               event: "timer.finished")
                _ = try services.write { try $0.timerStore().snapshot(ofTimer: id) }
            } else if snapshot.timer.state == .running, let remaining = snapshot.remaining?.seconds {
                // A few milliseconds past the end, so that the timer has ended when looked at.
                let wait = max(0, remaining) + 0.005
                nextWait = min(nextWait ?? wait, wait)
            }
        }
        return nextWait
    }
}
