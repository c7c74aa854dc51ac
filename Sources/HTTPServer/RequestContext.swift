#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// What the server knows of one request between libmicrohttpd's callbacks:
/// created when the request line arrives (the URI log callback), handed
/// back with every access-handler call as `con_cls`, released when
/// libmicrohttpd reports the request complete.
final class RequestContext {
    enum State {
        /// The head has not reached the access handler yet.
        case head
        /// A bodiless route: it runs once the (empty) body is known to be
        /// over, on a handler thread unless `quick` (see `HandlerPool`).
        case awaitingEnd(Router.Handler, Request, quick: Bool)
        /// The body streams into `receiver`.
        case receiving(any RequestBodyReceiver, Request, received: UInt64, limit: UInt64)
        /// The body was refused midway: the rest is read and dropped (up to
        /// a bound), then `error` is answered.
        case refused(any Error, Request?, discarded: UInt64)
        /// The request's work runs on a handler thread; its connection is
        /// suspended until the work is done.
        case running
        /// The work is done: this is sent when libmicrohttpd calls again,
        /// the connection resumed.
        case ready(Response)
        /// A response is queued.
        case answered
    }

    /// The request target exactly as the client sent it.
    let rawTarget: [UInt8]
    /// Where libmicrohttpd's copy of the target starts, for the check that
    /// it holds no NUL (see `ServerCore.targetHasNoNUL`).
    let targetAddress: UnsafeRawPointer?
    let arrival: MonotonicTime
    var state: State = .head
    var method = ""
    var status = 0
    var isHead = false
    /// Body bytes handed to libmicrohttpd, or where to read how many were.
    var bodyBytes: UInt64 = 0
    var streamCounter: StreamBox?
    var subscriber: EventSubscriber?

    init(target: UnsafePointer<CChar>?, arrival: MonotonicTime) {
        if let target {
            rawTarget = Array(UnsafeRawBufferPointer(start: target, count: strlen(target)))
        } else {
            rawTarget = []
        }
        targetAddress = target.map(UnsafeRawPointer.init)
        self.arrival = arrival
    }

    /// The target's path as a log may print it: escapes left as sent, every
    /// byte outside visible ASCII percent-encoded, the query left out.
    var printablePath: String {
        var text = ""
        for byte in rawTarget.prefix(while: { $0 != UInt8(ascii: "?") }) {
            if (0x21...0x7E).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }

    /// Body bytes sent so far.
    var sentBytes: UInt64 {
        if isHead { return 0 }
        if let streamCounter { return streamCounter.sentBytes }
        if let subscriber { return subscriber.stream.lock.locked { subscriber.sentBytes } }
        return bodyBytes
    }
}

/// A streaming body's producer and the bytes it made, for libmicrohttpd's
/// content-reader callback.
final class StreamBox {
    let producer: StreamProducer
    var sentBytes: UInt64 = 0

    init(_ producer: @escaping StreamProducer) {
        self.producer = producer
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
