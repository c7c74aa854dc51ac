import MemoCore

/// Slows down guessing: after a few failed attempts from one address, every
/// request from it is refused unchecked for a while that doubles with each
/// further failure (bounded), so a guesser gets a handful of tries a minute
/// at most. Refusing without waiting, rather than sleeping before the
/// answer, keeps the server's few threads free for everyone else.
///
/// Addresses are kept in memory, at most `capacity` of them (the one idle
/// longest is forgotten first); a success forgets its address.
final class AuthenticationThrottle: @unchecked Sendable {
    /// Failures an address may have before it is slowed down (typos).
    let freeFailures = 3
    /// The first wait, in seconds, then doubled per failure up to `maximumDelay`.
    let firstDelay = 1.0
    let maximumDelay = 60.0
    let capacity = 10_000

    private struct Entry {
        var failures: Int
        var lastFailure: Double
    }

    private let mutex = Monitor()
    private var entries: [String: Entry] = [:]

    /// Seconds `address` must still wait before its next attempt is checked,
    /// or nil when it may try now. `now` is monotonic seconds.
    func remainingDelay(for address: String, now: Double) -> Double? {
        mutex.locked {
            guard let entry = entries[address] else { return nil }
            let remaining = entry.lastFailure + delay(after: entry.failures) - now
            return remaining > 0 ? remaining : nil
        }
    }

    func recordFailure(from address: String, now: Double) {
        mutex.locked {
            if entries[address] == nil && entries.count >= capacity,
               let oldest = entries.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key {
                entries[oldest] = nil
            }
            var entry = entries[address] ?? Entry(failures: 0, lastFailure: now)
            entry.failures += 1
            entry.lastFailure = now
            entries[address] = entry
        }
    }

    func recordSuccess(from address: String) {
        mutex.locked { _ = entries.removeValue(forKey: address) }
    }

    /// The wait after `failures` failures.
    func delay(after failures: Int) -> Double {
        let excess = failures - freeFailures
        guard excess > 0 else { return 0 }
        return min(maximumDelay, firstDelay * Double(1 << min(excess - 1, 16)))
    }
}
