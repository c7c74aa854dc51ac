/// The tokens one tokenizer call has already emitted, so that a document's
/// repeated runs reach FTS5 once. With `detail = none` FTS5 keeps, per token,
/// only the rows that hold it, and a repeat within a row changes nothing it
/// writes; but each repeat still costs it a hash lookup, and in ordinary text
/// most single characters, and many pairs, repeat (see `SearchTokenizer`).
///
/// A token is a key of up to three folded characters (`key(_:_:_:)`). The
/// table is reused from call to call: a slot is empty unless it carries the
/// current call's stamp, so starting a call clears nothing. It holds at most
/// `largestCapacity` slots; a text with more distinct tokens than half of
/// that starts over, and its later repeats are emitted again, which is
/// harmless.
final class SearchTokenSet {
    private struct Slot {
        var key: UInt64
        var stamp: UInt32
    }

    private var slots: UnsafeMutablePointer<Slot>
    /// A power of two.
    private var capacity: Int
    private var stamp: UInt32 = 1
    private var count = 0

    static let smallestCapacity = 1 << 10
    /// 64 Ki slots (1 MiB): a memo of 10,000 characters or so fits whole.
    static let largestCapacity = 1 << 16

    init() {
        capacity = SearchTokenSet.smallestCapacity
        slots = SearchTokenSet.allocate(capacity)
    }

    deinit {
        slots.deallocate()
    }

    /// Starts a call over a text of `byteCount` bytes: no token is in the set.
    func start(byteCount: Int) {
        // Three tokens a character at most, and a character a byte at most;
        // the table stays at most half full.
        let wanted = min(SearchTokenSet.largestCapacity, max(SearchTokenSet.smallestCapacity, byteCount * 6))
        if wanted > capacity {
            slots.deallocate()
            capacity = 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
            slots = SearchTokenSet.allocate(capacity)
            stamp = 1
        } else {
            nextStamp()
        }
        count = 0
    }

    /// Adds `key`; true when it was not in the set yet.
    func insert(_ key: UInt64) -> Bool {
        if count * 2 >= capacity {
            nextStamp()
            count = 0
        }
        let mask = capacity - 1
        // Fibonacci hashing: the multiply spreads neighbouring code points.
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while slots[index].stamp == stamp {
            if slots[index].key == key { return false }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, stamp: stamp)
        count += 1
        return true
    }

    /// The key of the token of folded characters `first`, `second`, `third`
    /// (nil when the token is shorter): each value plus one in 21 bits, as
    /// no code point reaches 0x10FFFF + 1 = 0x110000 < 2^21; never 0.
    static func key(_ first: UInt32, _ second: UInt32?, _ third: UInt32?) -> UInt64 {
        UInt64(first + 1) | UInt64(second.map { $0 + 1 } ?? 0) << 21 | UInt64(third.map { $0 + 1 } ?? 0) << 42
    }

    // MARK: - Private

    private func nextStamp() {
        stamp &+= 1
        guard stamp == 0 else { return }
        // Once in four billion calls: every slot's stamp could be current again.
        slots.update(repeating: Slot(key: 0, stamp: 0), count: capacity)
        stamp = 1
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: 0, stamp: 0), count: capacity)
        return slots
    }
}
