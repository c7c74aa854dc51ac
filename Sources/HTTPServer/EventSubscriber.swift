import CMicroHTTPD

/// One client's event-stream connection: the bytes queued for it and
/// whether libmicrohttpd holds its connection suspended.
///
/// Everything here is guarded by its stream's lock, which is also held
/// around `MHD_suspend_connection` and `MHD_resume_connection`: resuming a
/// connection that is not suspended is undefined in libmicrohttpd, so the
/// flag and the call must change together. (Lock order: libmicrohttpd's
/// response mutex, then the stream's lock, then libmicrohttpd's
/// connection-cleanup mutex; nothing takes them the other way round.)
final class EventSubscriber: @unchecked Sendable {
    let stream: EventStream
    /// The server serving it, which ends it when stopping.
    let core: ServerCore
    let connection: OpaquePointer
    /// Whose subscription it is, in the app's words (see `EventStream.end(owners:)`).
    let owner: String?
    private let library: LibMicroHTTPD
    private var queue: [SharedBytes] = []
    private var queueHead = 0
    private var headOffset = 0
    private var queuedBytes = 0
    private var isSuspended = false
    private var isEnded = false
    private var isCut = false
    /// Set once its stream lets it go: nothing may resume its connection then.
    private var isDetached = false
    /// Body bytes handed to libmicrohttpd, for the request's log record.
    private(set) var sentBytes: UInt64 = 0
    /// Its key in the server's DepartureWatch, set once when it subscribes
    /// (before libmicrohttpd can release it), nil when its socket is not watched.
    var departureKey: UInt64?

    init(stream: EventStream, core: ServerCore, connection: OpaquePointer, owner: String?) {
        self.stream = stream
        self.core = core
        self.connection = connection
        self.owner = owner
        self.library = core.library
        // The response head goes out with the first body bytes: a first
        // comment opens the stream on the client at once.
        queue.append(EventSubscriber.opening)
        queuedBytes = EventSubscriber.opening.bytes.count
    }

    // MARK: Called holding the stream's lock

    /// Queues `bytes`; with `mayCut`, cuts the subscriber instead when its
    /// reader is too far behind (a replay decided beforehand that it fits).
    func enqueue(_ bytes: SharedBytes, mayCut: Bool = true) {
        guard !isEnded && !isCut else { return }
        // The limit is on how far behind a reader is, not on the size of an
        // event: what waits behind the event being sent is measured, so a
        // reader that keeps up takes any one event (a to-do whose note is
        // near the body limit) and the next one published while it is sent.
        // Cutting on the event's size cut every subscriber at once, and
        // every resume before it again. (Events are shared bytes: a queue
        // holds references, not copies.)
        if mayCut && bytesBehindHead > stream.configuration.backlogLimit {
            // A reader this far behind is cut; it reconnects and replays.
            cut()
        } else {
            queue.append(bytes)
            queuedBytes += bytes.bytes.count
            wake()
        }
    }

    func end() {
        isEnded = true
        wake()
    }

    /// Bytes queued behind the piece being sent (the first one queued, the
    /// opening comment before any event): how far behind its reader is.
    var bytesBehindHead: Int {
        guard queueHead < queue.count else { return 0 }
        return queuedBytes - (queue[queueHead].bytes.count - headOffset)
    }

    /// Its owner may no longer read: what is queued is dropped (it was
    /// queued for a credential that is gone) and the stream ends at once.
    /// A piece of an event already sent stays incomplete, and a client
    /// drops an event the stream ended inside.
    func endWithoutQueued() {
        queue = []
        queueHead = 0
        headOffset = 0
        queuedBytes = 0
        end()
    }

    /// Its client hung up: nothing queued can reach it, and its connection
    /// is resumed only for libmicrohttpd to close it.
    func cut() {
        isCut = true
        queue = []
        queueHead = 0
        headOffset = 0
        queuedBytes = 0
        wake()
    }

    func detach() {
        isDetached = true
    }

    private func wake() {
        guard isSuspended && !isDetached else { return }
        isSuspended = false
        library.resumeConnection(connection)
    }

    // MARK: Called by libmicrohttpd's content reader, on the connection's thread

    /// Fills `buffer` with queued bytes; when none are queued, suspends the
    /// connection and returns 0 (libmicrohttpd calls again once resumed), or
    /// ends the stream (-1) or cuts it (-2).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        stream.lock.locked {
            if queuedBytes > 0 { return copyQueued(into: buffer) }
            if isCut { return MHD_CONTENT_READER_END_WITH_ERROR }
            if isEnded { return MHD_CONTENT_READER_END_OF_STREAM }
            isSuspended = true
            library.suspendConnection(connection)
            return 0
        }
    }

    private func copyQueued(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        while written < buffer.count && queueHead < queue.count {
            let bytes = queue[queueHead].bytes
            let count = min(bytes.count - headOffset, buffer.count - written)
            bytes.withUnsafeBytes { source in
                let from = UnsafeRawBufferPointer(rebasing: source[headOffset..<headOffset + count])
                UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count]).copyMemory(from: from)
            }
            written += count
            headOffset += count
            if headOffset == bytes.count {
                queueHead += 1
                headOffset = 0
            }
        }
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        queuedBytes -= written
        sentBytes += UInt64(written)
        return written
    }

    private static let opening = SharedBytes(Array(": connected\n\n".utf8))
}
