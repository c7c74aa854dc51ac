#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD

/// The C callbacks libmicrohttpd calls, each a thin step into `ServerCore`;
/// `cls` is always the core (see `Server.start`).
enum Callbacks {
    /// MHD_OPTION_URI_LOG_CALLBACK: the request line has arrived, nothing
    /// else yet. Its return value becomes the request's `con_cls`, so the
    /// request's context starts here, with the target as sent.
    ///
    /// The query is then hidden from libmicrohttpd, which would store each
    /// of its items in the connection's memory pool: `RequestTarget` splits
    /// it from the context's copy instead. libmicrohttpd 0.9.75 finds the
    /// `?` before calling this and parses what follows it afterwards, in
    /// the request line's own buffer, where `target` points: a NUL just
    /// after the `?` leaves it an empty query. (With 500 short items the
    /// pool overflowed; libmicrohttpd then sent nothing, and never reported
    /// the request over, so its context leaked.)
    static let requestLineArrived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { cls, target, _ in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        core.requestBegan()
        let context = RequestContext(target: target, arrival: .now())
        if let target, let mark = context.rawTarget.firstIndex(of: UInt8(ascii: "?")) {
            UnsafeMutablePointer(mutating: target)[mark + 1] = 0
        }
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// MHD_OPTION_UNESCAPE_CALLBACK: leaves percent escapes alone, so that
    /// `RequestTarget` decodes them strictly (libmicrohttpd's decoder lets a
    /// malformed escape through, and a `%00` would cut its C string short).
    static let leaveEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?)
        -> Int = { _, _, text in
        text.map { strlen($0) } ?? 0
    }

    /// The access handler: once for the head, once per piece of body, once
    /// at the end (see MHD_AccessHandlerCallback).
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, data, size, context in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        guard let context, let pointer = context.pointee, let size, let connection else { return MHD_Result.NO }
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        let chunk = UnsafeRawBufferPointer(start: data, count: size.pointee)
        let keepGoing = core.handle(request, connection: connection, url: url, method: method, version: version,
                                    chunk: chunk)
        size.pointee = 0
        return keepGoing ? MHD_Result.YES : MHD_Result.NO
    }

    /// MHD_OPTION_NOTIFY_CONNECTION: a connection was accepted or is
    /// closing (its descriptor still open), for the `ConnectionGuard`.
    static let connectionChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?,
                                                  UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                                  MHD_ConnectionNotificationCode) -> Void = { cls, connection, _, code in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        guard let connection else { return }
        if code == .CONNECTION_NOTIFY_STARTED {
            core.connectionOpened(connection)
        } else {
            core.connections.closed(connection)
            if let status = core.refusedBeforeRequest() { core.logOwnRefusal(status) }
        }
    }

    /// MHD_OPTION_NOTIFY_COMPLETED: the request is over, whichever way.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, context, termination in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        core.requestEndedOnThisThread()
        if let connection { core.connections.requestEnded(connection) }
        guard let context, let pointer = context.pointee else { return }
        context.pointee = nil
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
        core.finish(request, connection: connection, termination: termination)
        core.requestEnded()
    }

    /// Content reader for `Response.Body.stream`.
    static let readStream: MHD_ContentReaderCallback = { box, _, buffer, capacity in
        let stream = Unmanaged<StreamBox>.fromOpaque(box!).takeUnretainedValue()
        let target = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
        do {
            let written = try stream.producer(target)
            guard written > 0 else { return MHD_CONTENT_READER_END_OF_STREAM }
            precondition(written <= capacity, "a stream producer wrote \(written) bytes into \(capacity)")
            stream.sentBytes += UInt64(written)
            return written
        } catch {
            return MHD_CONTENT_READER_END_WITH_ERROR
        }
    }

    static let releaseStream: MHD_ContentReaderFreeCallback = { box in
        Unmanaged<StreamBox>.fromOpaque(box!).release()
    }

    /// Content reader for `Response.Body.events`.
    static let readEvents: MHD_ContentReaderCallback = { subscriber, _, buffer, capacity in
        let subscriber = Unmanaged<EventSubscriber>.fromOpaque(subscriber!).takeUnretainedValue()
        return subscriber.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
    }

    /// The event response is destroyed: its connection is done with, so the
    /// subscriber leaves its stream (nothing may resume that connection now).
    static let releaseEvents: MHD_ContentReaderFreeCallback = { subscriber in
        let subscriber = Unmanaged<EventSubscriber>.fromOpaque(subscriber!).takeRetainedValue()
        subscriber.core.unregister(subscriber)
    }
}
