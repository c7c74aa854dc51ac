import MemoCore

/// A budget of failed authentications for the whole server, which tells a
/// client that keeps failing to back off.
///
/// What it is for, with 256-bit secrets: not their strength. Every
/// credential the API takes (a token, a session cookie, a sign-in code) is
/// 32 random bytes; at any rate a server could answer, guessing one is out
/// of reach, throttle or not. What is left to guard is the owner's use: a
/// neighbour process sending wrong tokens, or a signed-out tab retrying its
/// dead cookie, must not make the owner's requests fail. So the credential is
/// always checked first, and a valid one is always served: the throttle only
/// ever sees failures, and only changes how a failure is answered (401 with
/// `Retry-After` and the wait named, once the budget is spent). A client
/// that honours it stops hammering; guessing stays as hopeless as it was.
/// The one secret short enough to guess, a device code a person types into
/// a phone (40 bits), is guarded where it is stored, not here: every wrong
/// exchange counts against every waiting code, which is withdrawn after ten
/// (`DeviceCodes`); its failures are counted here too, as any other's.
///
/// One budget, not one per address: every address in 127.0.0.0/8 is the
/// same machine's, and a guesser rotating through them must find the same
/// budget spent. A success refills nothing (one client's success says
/// nothing about another's failures); time does.
final class AuthenticationThrottle: @unchecked Sendable {
    /// Failures the server takes at once before answers carry a wait: a few
    /// stale clients retrying and a few typos.
    let burst = 20.0
    /// Seconds for one failure's worth of budget to come back.
    let refillSeconds = 3.0

    private let mutex = Monitor()
    /// Failures the budget still takes now, at most `burst`.
    private var available: Double
    /// When `available` was last brought up to date (monotonic seconds).
    private var updated: Double?

    init() {
        available = burst
    }

    /// Counts one failed authentication at `now` (monotonic seconds); the
    /// seconds a client should wait before trying again when the budget is
    /// spent, else nil.
    func recordFailure(now: Double) -> Double? {
        mutex.locked {
            refill(now: now)
            available -= 1
            guard available < 0 else { return nil }
            // The budget does not run into debt without end: a flood of
            // failures waits one refill past empty, not the flood's length.
            available = max(available, -1)
            return -available * refillSeconds
        }
    }

    /// Seconds until a failure would be taken without a wait, or nil now.
    func remainingWait(now: Double) -> Double? {
        mutex.locked {
            refill(now: now)
            return available < 0 ? -available * refillSeconds : nil
        }
    }

    private func refill(now: Double) {
        if let updated, now > updated {
            available = min(burst, available + (now - updated) / refillSeconds)
        }
        updated = max(updated ?? now, now)
    }
}
