import Foundation

/// Holds handlers (on server threads) until the test opens it, counting
/// those that arrived.
public final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    private var arrived = 0

    public init() {}

    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return arrived
    }

    public func arriveAndWait() {
        condition.lock()
        arrived += 1
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    public func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
