@testable import MemoKit
import XCTest

/// The two-thread import loop must behave as the one-thread loop it
/// replaces: every item, in order; errors from either side in the order the
/// one thread would meet them; and a stopped consumer stops the producer.
final class HandOffTests: XCTestCase {
    private struct Failure: Error, Equatable {
        let at: Int
    }

    func testEveryItemArrivesInOrderAndTheProducersResultComesBack() throws {
        for count in [0, 1, 255, 256, 257, 10_000] {
            var seen: [Int] = []
            let result = try HandOff.run(batchSize: 256, batchesAhead: 2, produce: { send in
                for item in 0..<count { try send(item) }
                return "made \(count)"
            }, consume: { seen.append($0) })
            XCTAssertEqual(result, "made \(count)")
            XCTAssertEqual(seen, Array(0..<count), "\(count) items")
        }
    }

    func testAProducerErrorComesAfterEveryItemSentBeforeIt() {
        var seen: [Int] = []
        XCTAssertThrowsError(try HandOff.run(batchSize: 7, batchesAhead: 1, produce: { send in
            for item in 0..<100 { try send(item) }
            throw Failure(at: 100)
        }, consume: { seen.append($0) })) { XCTAssertEqual($0 as? Failure, Failure(at: 100)) }
        XCTAssertEqual(seen, Array(0..<100))
    }

    /// The last item an endless producer sent.
    private final class LastSent: @unchecked Sendable {
        var item = -1
    }

    /// A producer of 0, 1, 2, … that ends only when a send throws: the
    /// consumer's stop must reach it.
    private func sendingForever(_ last: LastSent) -> (_ send: (Int) throws -> Void) throws -> Void {
        { send in
            var item = 0
            while true {
                try send(item)
                last.item = item
                item += 1
            }
        }
    }

    func testAConsumerErrorStopsTheProducerAndComesOutItself() {
        let last = LastSent()
        var seen: [Int] = []
        XCTAssertThrowsError(try HandOff.run(batchSize: 4, batchesAhead: 2, produce: sendingForever(last), consume: { item in
            if item == 50 { throw Failure(at: item) }
            seen.append(item)
        })) { XCTAssertEqual($0 as? Failure, Failure(at: 50), "the consumer's error, not the producer's stop") }
        XCTAssertEqual(seen, Array(0..<50))
        // The queue holds a few batches at most: the producer got no further.
        XCTAssertLessThan(last.item, 50 + 4 * 4, "bounded: \(last.item)")
    }

    func testLargeItemsGoOverAloneAndTheQueueHoldsNoMoreThanItsBytes() {
        let last = LastSent()
        var seen: [Int] = []
        // 100 bytes an item, 350 bytes ahead: a batch is an item (100 bytes
        // is over 350 / 100), and the queue holds three.
        XCTAssertThrowsError(try HandOff.run(batchSize: 100, batchesAhead: 100, bytesAhead: 350, size: { _ in 100 },
                                             produce: sendingForever(last), consume: { item in
            if item == 10 { throw Failure(at: item) }
            seen.append(item)
        })) { XCTAssertEqual($0 as? Failure, Failure(at: 10)) }
        XCTAssertEqual(seen, Array(0..<10), "item 10 reached the consumer before batch 100 was full")
        // Item 10 taken, three behind it queued, the next one waiting for room.
        XCTAssertLessThanOrEqual(last.item, 13, "bounded by bytes: \(last.item)")
    }

    func testAnErrorAtTheConsumerWinsOverALaterOneAtTheProducer() {
        XCTAssertThrowsError(try HandOff.run(batchSize: 2, batchesAhead: 1, produce: { send in
            for item in 0..<10 { try send(item) }
            throw Failure(at: 10)
        }, consume: { item in if item == 3 { throw Failure(at: 3) } })) {
            XCTAssertEqual($0 as? Failure, Failure(at: 3))
        }
    }
}
