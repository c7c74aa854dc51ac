#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import Synchronization

/// Hands a `TeeStream`'s bytes, from its start, to libsndfile through a
/// socket, so that libsndfile reads the source as a stream it cannot seek
/// (see `SourceDecoder` for why). A thread of its own writes while the
/// caller's thread decodes from `readDescriptor`; the stream's checksum and
/// copy still see every byte once, in order, because the thread reads the
/// stream front to back.
///
/// The thread ends at the end of the source, on the source's failure (the
/// stream keeps it; the decoder sees the end of the data), or when the read
/// end is closed (`stop()`), whichever comes first. Until `stop()` returns
/// only that thread touches the stream.
final class StreamFeeder {
    /// The end libsndfile reads (`sf_open_fd`); closed by `stop()`.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let stream: TeeStream
    private let chunkSize: Int
    private var thread = pthread_t()
    private var isRunning = false
    /// Bytes handed over so far, for progress reports from the decoding thread.
    private let sent = Atomic<Int64>(0)

    /// A socket pair for `stream`; throws the system's reason when it has none to give.
    init(stream: TeeStream, chunkSize: Int) throws(StreamFeederError) {
        var pair: [Int32] = [-1, -1]
        // A socket rather than a pipe: a write to it can refuse SIGPIPE
        // (MSG_NOSIGNAL) when the decoder has stopped reading.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw StreamFeederError(code: errno)
        }
        readDescriptor = pair[0]
        writeDescriptor = pair[1]
        self.stream = stream
        self.chunkSize = max(1, chunkSize)
    }

    /// The thread holds the feeder while it runs, so this runs after it ended
    /// (on its own thread when the owner let go first, hence no join here).
    deinit {
        if !isStopped { close(readDescriptor) }
        if isRunning { pthread_detach(thread) }
        if !hasStarted { close(writeDescriptor) }
    }

    /// Bytes given to the decoder so far.
    var bytesSent: Int64 { sent.load(ordering: .relaxed) }

    /// Starts the thread, which writes from the stream's first byte.
    func start() throws(StreamFeederError) {
        precondition(!isRunning)
        let retained = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { argument in
            let feeder = Unmanaged<StreamFeeder>.fromOpaque(argument!).takeRetainedValue()
            feeder.run()
            return nil
        }, retained)
        guard status == 0 else {
            Unmanaged<StreamFeeder>.fromOpaque(retained).release()
            throw StreamFeederError(code: status)
        }
        hasStarted = true
        isRunning = true
    }

    /// Closes the read end (a writer blocked on it fails at once) and waits
    /// for the thread. Safe to call more than once.
    func stop() {
        if !isStopped {
            isStopped = true
            close(readDescriptor)
        }
        if isRunning {
            isRunning = false
            pthread_join(thread, nil)
        }
    }

    // MARK: - Private

    private var isStopped = false
    private var hasStarted = false

    /// The thread's work: the stream from its start, in chunks, until the
    /// end, a failure of the source, or a reader that has gone away.
    private func run() {
        defer { close(writeDescriptor) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        guard stream.seek(0, whence: SEEK_SET) == 0 else { return }
        while true {
            let count = Int(stream.read(into: buffer, count: sf_count_t(chunkSize)))
            guard count > 0 else { return }
            var done = 0
            while done < count {
                let result = send(writeDescriptor, buffer + done, count - done, Int32(MSG_NOSIGNAL))
                if result < 0 {
                    if errno == EINTR { continue }
                    // EPIPE or ECONNRESET: the decoder stopped reading; the
                    // rest of the source is read by `TeeStream.finish()`.
                    return
                }
                done += result
            }
            sent.add(Int64(count), ordering: .relaxed)
        }
    }
}

/// Why a `StreamFeeder` could not be set up: the system's errno.
struct StreamFeederError: Error {
    let code: Int32
    var reason: String { String(cString: strerror(code)) }
}
