import MemoCore
import Notes

/// Two threads for one import: `produce` reads and checks items on a thread
/// of its own while the calling thread stores them with `consume`, so that
/// parsing a file and writing the database, each about half of an import's
/// work, share the machine's cores instead of taking turns.
///
/// Items go over in batches through a queue bounded twice: by a number of
/// batches and by `bytesAhead` of what the items hold (`size`, an estimate
/// of an item's memory), so memory stays bounded however long the file is
/// and however large its items. The result
/// is what running `produce` with `consume` as its `send` would give, errors
/// included: items reach `consume` in the order sent; an error of `produce`
/// comes out after every item sent before it was consumed, and an error of
/// `consume` stops `produce` (its next `send` throws) and comes out itself.
/// Only the calling thread touches the database: `produce` must not.
enum HandOff {
    static func run<Item, Result>(batchSize: Int = 256, batchesAhead: Int = 8, bytesAhead: Int = 64 << 20,
                                  size: @escaping (Item) -> Int = { _ in 0 },
                                  produce: @escaping (_ send: (Item) throws -> Void) throws -> Result,
                                  consume: (Item) throws -> Void) throws -> Result {
        precondition(batchSize > 0 && batchesAhead > 0 && bytesAhead > 0, "a queue holds something")
        let queue = BatchQueue<Item, Result>(capacity: batchesAhead, bytesAhead: bytesAhead)
        // A batch of large items goes over before it is full, so one batch
        // never holds more than its share of the bytes.
        let batchBytes = max(1, bytesAhead / batchesAhead)
        let thread = HelperThread { [queue] in
            var batch = Batch<Item>()
            batch.items.reserveCapacity(batchSize)
            let outcome: Swift.Result<Result, any Error>
            do {
                let result = try produce { item in
                    batch.items.append(item)
                    batch.bytes += size(item)
                    guard batch.items.count == batchSize || batch.bytes >= batchBytes else { return }
                    try queue.put(batch)
                    batch.items.removeAll(keepingCapacity: true)
                    batch.bytes = 0
                }
                if !batch.items.isEmpty { try queue.put(batch) }
                outcome = .success(result)
            } catch {
                // What was sent before the error is consumed before it
                // comes out (unless the consumer stopped first).
                if !batch.items.isEmpty { try? queue.put(batch) }
                outcome = .failure(error)
            }
            queue.finish(outcome)
        }
        defer { thread.join() }
        do {
            while let batch = queue.take() {
                for item in batch.items { try consume(item) }
            }
        } catch {
            queue.cancel()
            throw error
        }
        return try queue.outcome().get()
    }

    /// How many batches the reader may be ahead by: 8, or 200 (51,200
    /// items) when the writer now and then indexes a chunk of rows (`bulk`,
    /// an import into an empty home, `NotesArchive.BulkWrite`), so that the
    /// reader goes on for as long as the queue has room. A restore of
    /// 2,000,000 items took 60 s with 100 batches, 56 s with 200, and no
    /// less with 400.
    static func batchesAhead(indexing bulk: NotesArchive.BulkWrite?) -> Int {
        bulk == nil ? 8 : 200
    }
}

// MARK: - What items hold

/// An estimate for `HandOff`'s bound on bytes: an item's texts, and a fixed
/// 256 bytes for the rest (the value itself, its uid, dates and arrays).
private func bytesHeld(_ texts: String?..., tags: [String]) -> Int {
    256 + texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) } + tags.reduce(0) { $0 + $1.utf8.count }
}

extension ImportedTodo {
    var bytesHeld: Int { MemoKit.bytesHeld(title, note, tags: tags) }
}

extension ImportedMemo {
    var bytesHeld: Int { MemoKit.bytesHeld(title, text, tags: tags) }
}

extension ImportDocument.Item {
    var bytesHeld: Int {
        switch self {
        case let .todo(todo): MemoKit.bytesHeld(todo.title, todo.note, tags: todo.tags)
        case let .memo(memo): MemoKit.bytesHeld(memo.title, memo.text, tags: memo.tags)
        case .voiceMemo, .timer: MemoKit.bytesHeld(tags: [])
        }
    }
}

/// Items sent together, and what they hold.
private struct Batch<Item> {
    var items: [Item] = []
    var bytes = 0
}

/// The batches between the two threads, and how the producer ended, under
/// one `Monitor` (the mutex and condition the helper threads share).
private final class BatchQueue<Item, Result>: @unchecked Sendable {
    /// What `put` throws once the consumer has stopped.
    struct Cancelled: Error {}

    private let monitor = Monitor()
    private var batches: [Batch<Item>] = []
    private var bytesQueued = 0
    private var ending: Swift.Result<Result, any Error>?
    private var isCancelled = false
    private let capacity: Int
    private let bytesAhead: Int

    init(capacity: Int, bytesAhead: Int) {
        self.capacity = capacity
        self.bytesAhead = bytesAhead
    }

    /// Waits for room, then queues `batch`; throws once the consumer stopped.
    /// An empty queue takes any batch, so a batch over the bound still goes.
    func put(_ batch: Batch<Item>) throws {
        try monitor.locked {
            while !batches.isEmpty && (batches.count >= capacity || bytesQueued + batch.bytes > bytesAhead)
                    && !isCancelled {
                monitor.wait(seconds: nil)
            }
            if isCancelled { throw Cancelled() }
            batches.append(batch)
            bytesQueued += batch.bytes
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
    func take() -> Batch<Item>? {
        monitor.locked {
            while batches.isEmpty && ending == nil { monitor.wait(seconds: nil) }
            guard !batches.isEmpty else { return nil }
            monitor.broadcast()
            let batch = batches.removeFirst()
            bytesQueued -= batch.bytes
            return batch
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
