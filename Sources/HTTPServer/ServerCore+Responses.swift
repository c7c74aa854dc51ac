#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD

extension ServerCore {
    /// Queues `response` on `connection`; false when libmicrohttpd could not
    /// take it (the connection is then closed). A response whose header
    /// fields cannot be sent as they are becomes a 500.
    func send(_ response: Response, to connection: OpaquePointer, context: RequestContext) -> Bool {
        context.state = .answered
        var status = response.status
        var handle = makeResponse(response, connection: connection, context: context)
        if handle == nil {
            status = 500
            handle = makeResponse(HTTPError.plainResponse(for: HTTPError.internalError, request: nil),
                                  connection: connection, context: context)
        }
        guard let handle else { return false }
        let queued = library.queueResponse(connection, UInt32(status), handle)
        // The queue holds its own reference; this one is done with.
        library.destroyResponse(handle)
        context.status = status
        return queued == MHD_Result.YES
    }

    /// The app's response for `error`, with the fields the error itself
    /// requires (`Allow` on a 405) even if the app's renderer left them out.
    func renderError(_ error: any Error, _ request: Request?) -> Response {
        var response = configuration.errorResponse(error, request)
        if let error = error as? HTTPError {
            for field in error.headers where !response.headers.contains(field.name) {
                response.headers.add(field.name, field.value)
            }
        }
        return response
    }

    private func makeResponse(_ response: Response, connection: OpaquePointer,
                              context: RequestContext) -> OpaquePointer? {
        var headers = response.headers.filling(from: configuration.defaultHeaders)
        if stopping { headers.set("Connection", "close") }
        guard headers.allSatisfy(ServerCore.isSendable) else { return nil }
        guard let handle = makeBody(response.body, connection: connection, context: context) else { return nil }
        for field in headers where !ServerCore.framingFields.contains(where: { Headers.sameName($0, field.name) }) {
            guard library.addResponseHeader(handle, field.name, field.value) == MHD_Result.YES else {
                library.destroyResponse(handle)
                return nil
            }
        }
        return handle
    }

    private func makeBody(_ body: Response.Body, connection: OpaquePointer, context: RequestContext) -> OpaquePointer? {
        context.bodyBytes = 0
        context.streamCounter = nil
        context.subscriber = nil
        switch body {
        case .empty:
            return library.createResponseFromBuffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            context.bodyBytes = UInt64(bytes.count)
            return bytes.withUnsafeBytes {
                library.createResponseFromBuffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress),
                                                 .RESPMEM_MUST_COPY)
            }
        case .file(let region):
            // libmicrohttpd closes the descriptor it is given; the OpenFile keeps its own.
            let descriptor = fcntl(region.file.descriptor, F_DUPFD_CLOEXEC, 0)
            guard descriptor >= 0 else { return nil }
            guard let handle = library.createResponseFromFileAtOffset(region.length, descriptor, region.offset) else {
                close(descriptor)
                return nil
            }
            context.bodyBytes = region.length
            return handle
        case .stream(let length, let producer):
            let box = StreamBox(producer)
            let retained = Unmanaged.passRetained(box)
            guard let handle = library.createResponseFromCallback(length ?? ServerCore.sizeUnknown, 32 * 1024,
                                                                  Callbacks.readStream, retained.toOpaque(),
                                                                  Callbacks.releaseStream) else {
                retained.release()
                return nil
            }
            context.streamCounter = box
            return handle
        case .events(let subscription):
            // HEAD gets the head alone; no subscriber is made for it.
            if context.isHead { return library.createResponseFromBuffer(0, nil, .RESPMEM_PERSISTENT) }
            let subscriber = EventSubscriber(stream: subscription.stream, core: self, connection: connection,
                                             owner: subscription.owner)
            let retained = Unmanaged.passRetained(subscriber)
            guard let handle = library.createResponseFromCallback(ServerCore.sizeUnknown, 4096, Callbacks.readEvents,
                                                                  retained.toOpaque(), Callbacks.releaseEvents) else {
                retained.release()
                return nil
            }
            context.subscriber = subscriber
            register(subscriber, lastEventID: subscription.lastEventID)
            return handle
        }
    }

    /// MHD_SIZE_UNKNOWN: the body is sent chunked (HTTP/1.1) or until close.
    private static let sizeUnknown = UInt64.max

    /// Fields libmicrohttpd writes itself from the body; one set by the app
    /// would contradict it.
    private static let framingFields = ["Content-Length", "Transfer-Encoding"]

    /// The symbols a token may hold besides letters and digits; made once,
    /// not for every field of every response.
    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)

    /// A field libmicrohttpd can send as it is: the name a token (RFC 9110
    /// section 5.1), the value without CR, LF, NUL or other control
    /// characters but tab, so no value can forge another field.
    private static func isSendable(_ field: Headers.Field) -> Bool {
        !field.name.isEmpty
            && field.name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || ServerCore.tokenSymbols.contains(byte)
            }
            && field.value.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }
    }
}
