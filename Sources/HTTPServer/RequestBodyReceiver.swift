/// Takes a request body piece by piece as libmicrohttpd reads it off the
/// socket, so an upload is never held whole in memory. A route made with
/// `Router.upload` creates one per request, once the head has passed every
/// check (the `beforeEach` hook, the Content-Length limit).
///
/// The server calls `receive` for each piece, then exactly one of `finish`
/// (the whole body arrived) or `abandon` (it never will); all on the
/// connection's server thread, one call at a time. Each may block (disk,
/// database).
public protocol RequestBodyReceiver: AnyObject {
    /// The next piece of the body, valid only during the call. A throw
    /// refuses the body: `abandon(.refused)` follows, and the error is
    /// answered like a handler's.
    func receive(_ chunk: UnsafeRawBufferPointer) throws

    /// The body is complete: the response. A throw is answered like a
    /// handler's, and no `abandon` follows.
    func finish() throws -> Response

    /// The body will not be complete: undo whatever `receive` began.
    func abandon(_ reason: BodyFailure)
}

/// Why a request body ended before it was complete.
public enum BodyFailure: Sendable, Equatable {
    /// It grew past the route's body limit (sent chunked, so no
    /// Content-Length said so in advance); the client is answered 413.
    case tooLarge
    /// `receive` threw.
    case refused
    /// The client closed the connection or stopped the upload midway.
    case cutOff
    /// The client sent nothing for the connection time-out.
    case timedOut
    /// The server stopped before the body was complete.
    case serverStopped
}

/// Gathers a small body (a JSON document) up to its route's limit and hands
/// it whole to a handler: for bodies a handler needs at once anyway, never
/// for uploads of files.
final class CollectingReceiver: RequestBodyReceiver {
    private let request: Request
    private let handler: @Sendable (Request, [UInt8]) throws -> Response
    private var body: [UInt8] = []

    init(request: Request, handler: @escaping @Sendable (Request, [UInt8]) throws -> Response) {
        self.request = request
        self.handler = handler
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        body.append(contentsOf: chunk)
    }

    func finish() throws -> Response {
        try handler(request, body)
    }

    func abandon(_ reason: BodyFailure) {
        body = []
    }
}
