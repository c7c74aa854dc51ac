#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import MemoCore

extension ServerCore {
    /// A refused body is read and dropped up to this many bytes so the
    /// client can be told why; past it the connection is closed instead
    /// (libmicrohttpd 0.9.75 cannot queue a response while a body arrives).
    /// A chunked body announces no length, so its 413 can only come at its
    /// end: sixteen times the JSON limit lets a client that overshot a
    /// limit it did not know hear why, while one that streams on without
    /// end does not hold a thread reading it for ever. (Dropping bytes costs
    /// no memory and no disk, only the reading.)
    static let refusedBodyAllowance: UInt64 = 16 << 20

    /// One access-handler call for `context`; false makes libmicrohttpd
    /// close the connection.
    func handle(_ context: RequestContext, connection: OpaquePointer, url: UnsafePointer<CChar>?,
                method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, chunk: UnsafeRawBufferPointer) -> Bool {
        switch context.state {
        case .head:
            return begin(context, connection: connection, url: url, method: method, version: version)
        case .awaitingEnd(let handler, let request, let quick):
            guard chunk.isEmpty else {
                // A chunked body for a route that takes none.
                context.state = .refused(HTTPError.tooLarge(limit: 0), request, discarded: UInt64(chunk.count))
                connections.body(of: connection, isArriving: true)
                return UInt64(chunk.count) <= ServerCore.refusedBodyAllowance
            }
            guard quick else { return dispatch(context, connection: connection, request: request) { try handler(request) } }
            return respond(context, connection: connection, request: request) { try handler(request) }
        case .receiving(let receiver, let request, let received, let limit):
            if chunk.isEmpty {
                connections.body(of: connection, isArriving: false)
                return dispatch(context, connection: connection, request: request) {
                    try self.withinRoute { try receiver.finish() }
                }
            }
            connections.bodyArrived(chunk.count, on: connection)
            let total = received + UInt64(chunk.count)
            guard total <= limit else {
                receiver.abandon(.tooLarge)
                context.state = .refused(HTTPError.tooLarge(limit: limit), request, discarded: UInt64(chunk.count))
                return UInt64(chunk.count) <= ServerCore.refusedBodyAllowance
            }
            do {
                try receiver.receive(chunk)
                context.state = .receiving(receiver, request, received: total, limit: limit)
            } catch {
                receiver.abandon(.refused)
                context.state = .refused(error, request, discarded: UInt64(chunk.count))
            }
            return true
        case .refused(let error, let request, let discarded):
            if chunk.isEmpty {
                return send(renderError(error, request), to: connection, context: context)
            }
            connections.bodyArrived(chunk.count, on: connection)
            let total = discarded + UInt64(chunk.count)
            context.state = .refused(error, request, discarded: total)
            return total <= ServerCore.refusedBodyAllowance
        case .running:
            // Suspended until its work is done; nothing to do before.
            return true
        case .ready(let response):
            // Done after the stop's grace period: not sent (the stop
            // counted it unfinished), the connection closed.
            guard !isPastGracePeriod else { return false }
            return send(response, to: connection, context: context)
        case .answered:
            // libmicrohttpd calls no more once a response is queued.
            return true
        }
    }

    /// Runs `make` on a handler thread, the connection suspended meanwhile
    /// (libmicrohttpd reads and writes its other connections on), and has
    /// what it answers or throws sent once the connection is resumed.
    /// Suspended before the work is handed over, so that a resume never
    /// comes before its suspension. Past a stop's grace period the handlers
    /// take no more work, and the connection is closed unanswered, as work
    /// done after it is (see `HandlerPool.reserve`).
    private func dispatch(_ context: RequestContext, connection: OpaquePointer, request: Request,
                          _ make: @escaping () throws -> Response) -> Bool {
        guard handlers.reserve() else { return false }
        context.state = .running
        library.suspendConnection(connection)
        nonisolated(unsafe) let (context, connection, make) = (context, connection, make)
        handlers.submit(for: client(of: request), isSlow: request.route?.isSlow ?? false, reserved: true) { [self] in
            let response: Response
            do {
                response = try make()
            } catch {
                response = renderError(error, request)
            }
            context.state = .ready(response)
            library.resumeConnection(connection)
        }
        return true
    }

    /// Whose request it is, for the handler threads' shares.
    private func client(of request: Request) -> String {
        configuration.clientIdentity?(request) ?? request.remoteHost
    }

    /// libmicrohttpd reports the request over: a body still arriving is
    /// abandoned, and the app gets the request's record.
    func finish(_ context: RequestContext, connection: OpaquePointer?, termination: MHD_RequestTerminationCode) {
        let isCutForTime = connection.map(connections.wasCutForTime) ?? false
        if case .receiving(let receiver, _, _, _) = context.state {
            switch termination {
            case _ where isCutForTime, .REQUEST_TERMINATED_TIMEOUT_REACHED: receiver.abandon(.timedOut)
            case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: receiver.abandon(.serverStopped)
            default: receiver.abandon(.cutOff)
            }
            context.state = .answered
        }
        guard let log = configuration.requestLog else { return }
        var status = context.status
        if status == 0, let info = library.connectionInfo(connection, .CONNECTION_INFO_HTTP_STATUS) {
            // libmicrohttpd answered the head itself (431, 400).
            status = Int(info.pointee.http_status)
        }
        let outcome: RequestRecord.Outcome
        switch termination {
        case _ where isCutForTime: outcome = .timedOut
        case .REQUEST_TERMINATED_COMPLETED_OK: outcome = .completed
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = .timedOut
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: outcome = .serverStopped
        default: outcome = .failed
        }
        log(RequestRecord(method: printable(context.method, limit: 40), path: context.printablePath, status: status,
                          bytes: context.sentBytes, milliseconds: MonotonicTime.now().milliseconds(since: context.arrival),
                          outcome: outcome))
    }

    /// Logs a request libmicrohttpd refused by itself before its line was
    /// whole (see `ownRefusals`): no method or path to tell.
    func logOwnRefusal(_ status: Int) {
        configuration.requestLog?(RequestRecord(method: "-", path: "-", status: status, bytes: 0, milliseconds: 0,
                                                outcome: .completed))
    }

    // MARK: - The head

    /// The head has arrived: check it, route it, ask the hook, and either
    /// answer at once or get ready for the body.
    private func begin(_ context: RequestContext, connection: OpaquePointer, url: UnsafePointer<CChar>?,
                       method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?) -> Bool {
        connections.headArrived(connection)
        context.method = method.map { String(cString: $0) } ?? ""
        context.isHead = context.method == Method.head.rawValue
        var request: Request?
        do {
            let head = try readHead(context, connection: connection, url: url, version: version)
            request = head
            return try route(head, context: context, connection: connection)
        } catch {
            return answer(renderError(error, request), context: context, connection: connection, request: request)
        }
    }

    /// Answers before the body: at once when one is coming (libmicrohttpd
    /// then drops it and closes the connection), else at the end of the
    /// request, which keeps the connection open for the next one.
    private func answer(_ response: Response, context: RequestContext, connection: OpaquePointer,
                        request: Request?) -> Bool {
        guard let request, !ServerCore.hasBody(request.headers) else {
            return send(response, to: connection, context: context)
        }
        context.state = .awaitingEnd({ _ in response }, request, quick: true)
        return true
    }

    private func readHead(_ context: RequestContext, connection: OpaquePointer, url: UnsafePointer<CChar>?,
                          version: UnsafePointer<CChar>?) throws(HTTPError) -> Request {
        if let info = library.connectionInfo(connection, .CONNECTION_INFO_REQUEST_HEADER_SIZE),
           info.pointee.header_size > configuration.requestHeaderLimit {
            throw HTTPError(status: 431, en: "Request header fields too large (at most \(configuration.requestHeaderLimit) bytes)",
                            ko: "요청 헤더가 너무 큽니다(최대 \(configuration.requestHeaderLimit)바이트)")
        }
        guard let url, targetHasNoNUL(context, version: version) else {
            throw HTTPError(status: 400, en: "Bad request: the request target holds a NUL byte",
                            ko: "잘못된 요청: 요청 대상에 NUL 바이트가 있습니다")
        }
        let headers = headerFields(connection)
        try RequestHeadChecks.check(headers)
        let rawPath = UnsafeRawBufferPointer(start: url, count: strlen(url))
        let absolute = try RequestTarget.absoluteForm(rawPath)
        let path = if let absolute { try RequestTarget.pathSegments(absolute.path) } else {
            try RequestTarget.pathSegments(rawPath)
        }
        let query = try RequestTarget.queryItems(ofTarget: context.rawTarget, limit: configuration.queryItemLimit)
        return Request(method: Method(rawValue: context.method), target: String(decoding: context.rawTarget, as: UTF8.self),
                       path: path, query: query, headers: headers, remoteAddress: remoteAddress(connection),
                       httpVersion: version.map { String(cString: $0) } ?? "", targetAuthority: absolute?.authority)
    }

    /// Routes the checked head; true unless answering failed.
    private func route(_ head: Request, context: RequestContext, connection: OpaquePointer) throws -> Bool {
        if stopping {
            throw HTTPError(status: 503, en: "The server is stopping", ko: "서버가 멈추는 중입니다")
        }
        var request = head
        let resolution = router.resolve(request.method, path: request.path)
        if case .matched(let route, let parameters) = resolution {
            request.routePattern = route.pattern
            request.route = route
            request.parameters = parameters
        }
        guard ServerCore.hasBody(request.headers) else {
            // Nothing arrives between this head and the request's end: the
            // hook and the route run together then, in one `around` call
            // (one read transaction for both, in memoapp's server).
            let isQuick: Bool
            if case .matched(let route, _) = resolution { isQuick = route.isQuick } else { isQuick = false }
            context.state = .awaitingEnd({ request in
                try self.withinRoute {
                    if let hook = self.router.beforeEach, let response = try hook(request) { return response }
                    switch try ServerCore.matchedRoute(resolution).action {
                    case .respond(let handler): return try handler(request)
                    case .receive(let makeReceiver): return try makeReceiver(request).finish()
                    }
                }
            }, request, quick: isQuick)
            return true
        }
        if let hook = router.beforeEach, let response = try within({ try hook(request) }) {
            return answer(response, context: context, connection: connection, request: request)
        }
        let route = try ServerCore.matchedRoute(resolution)
        if let length = ServerCore.contentLength(request.headers), length > route.bodyLimit {
            let tooLarge = HTTPError.tooLarge(limit: route.bodyLimit)
            // A client waiting on `Expect: 100-continue` hears at once and
            // sends nothing. One that sent its body along (what browsers and
            // most clients do) must have it read: answered and closed on
            // unread bytes, its connection is reset under it before it reads
            // the 413 (curl printed 000). Read and dropped within the
            // allowance, past it closed as before.
            guard request.headers["Expect"] == nil, length <= ServerCore.refusedBodyAllowance else { throw tooLarge }
            context.state = .refused(tooLarge, request, discarded: 0)
            connections.body(of: connection, isArriving: true, declaredLength: length)
            return true
        }
        switch route.action {
        case .respond(let handler):
            context.state = .awaitingEnd({ request in try self.withinRoute { try handler(request) } }, request,
                                         quick: route.isQuick)
        case .receive(let makeReceiver):
            context.state = .receiving(try makeReceiver(request), request, received: 0, limit: route.bodyLimit)
            connections.body(of: connection, isArriving: true,
                             declaredLength: ServerCore.contentLength(request.headers))
        }
        return true
    }

    /// The route that serves a resolved request; 404 or 405 when none does.
    private static func matchedRoute(_ resolution: Router.Resolution) throws -> Route {
        switch resolution {
        case .notFound:
            throw HTTPError(status: 404, en: "Not found", ko: "찾을 수 없습니다")
        case .methodNotAllowed(let allowed):
            throw HTTPError(status: 405, en: "Method not allowed", ko: "허용되지 않는 메서드입니다",
                            headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
        case .matched(let route, _):
            return route
        }
    }

    /// `body` inside the router's `around`, when it has one.
    private func within(_ body: () throws -> Response?) throws -> Response? {
        guard let around = router.around else { return try body() }
        return try around(body)
    }

    /// `within` for a route's work, which always answers.
    private func withinRoute(_ body: () throws -> Response) throws -> Response {
        guard let around = router.around else { return try body() }
        guard let response = try around(body) else {
            preconditionFailure("the router's around returned no response for a route that answered")
        }
        return response
    }

    /// Runs `make` and sends what it answers or throws.
    private func respond(_ context: RequestContext, connection: OpaquePointer, request: Request,
                         _ make: () throws -> Response) -> Bool {
        context.state = .answered
        let response: Response
        do {
            response = try make()
        } catch {
            response = renderError(error, request)
        }
        return send(response, to: connection, context: context)
    }

    /// libmicrohttpd hands the URI log callback the target as a C string
    /// that ends where the request line's space before the HTTP version was
    /// (it writes a NUL there first, and the version follows it). A NUL the
    /// client sent would end that string earlier, and libmicrohttpd 0.9.75
    /// does not refuse one; so the target is whole exactly when its end
    /// sits one byte before the version.
    private func targetHasNoNUL(_ context: RequestContext, version: UnsafePointer<CChar>?) -> Bool {
        guard let start = context.targetAddress, let version else { return false }
        return start + context.rawTarget.count + 1 == UnsafeRawPointer(version)
    }

    /// Whether a body follows the head: a Content-Length above 0, or any
    /// Transfer-Encoding (libmicrohttpd accepts only chunked).
    static func hasBody(_ headers: Headers) -> Bool {
        headers.contains("Transfer-Encoding") || (contentLength(headers) ?? 0) > 0
    }

    /// The request's Content-Length (`RequestHeadChecks` has made sure that
    /// every copy of it agrees); one too large to count is as good as infinite.
    static func contentLength(_ headers: Headers) -> UInt64? {
        let values = headers.values(for: "Content-Length")
        guard !values.isEmpty else { return nil }
        return values.map { UInt64($0.trimmingASCIISpaces) ?? UInt64.max }.max()
    }

    /// The key-value pairs of `kind` libmicrohttpd parsed from the head, as bytes.
    private func values(of kind: MHD_ValueKind, _ connection: OpaquePointer) -> [([UInt8], [UInt8])] {
        final class Pairs { var list: [([UInt8], [UInt8])] = [] }
        let pairs = Pairs()
        _ = library.connectionValues(connection, kind, { cls, _, key, keySize, value, valueSize in
            let pairs = Unmanaged<Pairs>.fromOpaque(cls!).takeUnretainedValue()
            let name = key.map { Array(UnsafeRawBufferPointer(start: $0, count: keySize)) } ?? []
            let text = value.map { Array(UnsafeRawBufferPointer(start: $0, count: valueSize)) } ?? []
            pairs.list.append((name, text))
            return MHD_Result.YES
        }, Unmanaged.passUnretained(pairs).toOpaque())
        return pairs.list
    }

    /// The head's fields, each made a String straight from libmicrohttpd's
    /// bytes (by way of two arrays per field, they showed under perf).
    private func headerFields(_ connection: OpaquePointer) -> Headers {
        final class Fields { var headers = Headers() }
        let fields = Fields()
        _ = library.connectionValues(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            let fields = Unmanaged<Fields>.fromOpaque(cls!).takeUnretainedValue()
            fields.headers.add(ServerCore.text(key, keySize), ServerCore.text(value, valueSize))
            return MHD_Result.YES
        }, Unmanaged.passUnretained(fields).toOpaque())
        return fields.headers
    }

    /// `count` bytes at `start` as UTF-8 text (invalid bytes replaced), or "" for none.
    private static func text(_ start: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let start else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    private func remoteAddress(_ connection: OpaquePointer) -> String {
        guard let info = library.connectionInfo(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
              let address = info.pointee.client_addr else { return "" }
        return SocketAddressText.describe(address)
    }
}

extension HTTPError {
    static func tooLarge(limit: UInt64) -> HTTPError {
        HTTPError(status: 413, en: "Request body too large (at most \(limit) bytes)",
                  ko: "요청 본문이 너무 큽니다(최대 \(limit)바이트)")
    }
}
