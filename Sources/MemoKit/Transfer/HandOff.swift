import MemoCore

/// Two threads for one import: `produce` reads and checks items on a thread
/// of its own while the calling thread stores them with `consume`, so that
/// parsing a file and writing the database, each about half of an import's
/// work, share the machine's cores instead of taking turns.
///
/// Items go over in batches through a queue of a few batches, so memory
/// stays that of a few thousand items however long the file is. The result
/// is what running `produce` with `consume` as its `send` would give, errors
/// included: items reach `consume` in the order sent; an error of `produce`
/// comes out after every item sent before it was consumed, and an error of
/// `consume` stops `produce` (its next `send` throws) and comes out itself.
/// Only the calling thread touches the database: `produce` must not.
enum HandOff {
    static func run<Item, Result>(batchSize: Int = 256, batchesAhead: Int = 8,
                                  produce: @escaping (_ send: (Item) throws -> Void) throws -> Result,
                                  consume: (Item) throws -> Void) throws -> Result {
        let queue = BatchQueue<Item, Result>(capacity: batchesAhead)
        let thread = HelperThread { [queue] in
            var batch: [Item] = []
            batch.reserveCapacity(batchSize)
            let outcome: Swift.Result<Result, any Error>
            do {
                let result = try produce { item in
                    batch.append(item)
                    guard batch.count == batchSize else { return }
                    try queue.put(batch)
                    batch.removeAll(keepingCapacity: true)
                }
                if !batch.isEmpty { try queue.put(batch) }
                outcome = .success(result)
            } catch {
                // What was sent before the error is consumed before it
                // comes out (unless the consumer stopped first).
                if !batch.isEmpty { try? queue.put(batch) }
                outcome = .failure(error)
            }
            queue.finish(outcome)
        }
        defer { thread.join() }
        do {
            while let batch = queue.take() {
                for item in batch { try consume(item) }
            }
        } catch {
            queue.cancel()
            throw error
        }
        return try queue.outcome().get()
    }
}

/// The batches between the two threads, and how the producer ended, under
/// one `Monitor` (the mutex and condition the helper threads share).
private final class BatchQueue<Item, Result>: @unchecked Sendable {
    /// What `put` throws once the consumer has stopped.
    struct Cancelled: Error {}

    private let monitor = Monitor()
    private var batches: [[Item]] = []
    private var ending: Swift.Result<Result, any Error>?
    private var isCancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then queues `batch`; throws once the consumer stopped.
    func put(_ batch: [Item]) throws {
        try monitor.locked {
            while batches.count >= capacity && !isCancelled { monitor.wait(seconds: nil) }
            if isCancelled { throw Cancelled() }
            batches.append(batch)
            monitor.broadcast()
        }
    }

    /// The producer's end: its result or error, after its last batch.
    func finish(_ outcome: Swift.Result<Result, any Error>) {
        monitor.locked {
            ending = outcome
            monitor.broadcast()
        }
    }

    /// The next batch, waiting for one; nil once the producer ended and
    /// every batch was taken.
    func take() -> [Item]? {
        monitor.locked {
            while batches.isEmpty && ending == nil { monitor.wait(seconds: nil) }
            guard !batches.isEmpty else { return nil }
            monitor.broadcast()
            return batches.removeFirst()
        }
    }

    /// The consumer stopped: the producer's next `put` throws.
    func cancel() {
        monitor.locked {
            isCancelled = true
            monitor.broadcast()
        }
    }

    /// How the producer ended; call after `take` returned nil.
    func outcome() -> Swift.Result<Result, any Error> {
        monitor.locked { ending ?? .failure(Cancelled()) }
    }
}
