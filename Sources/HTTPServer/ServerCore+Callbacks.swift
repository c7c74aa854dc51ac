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
    static let requestLineArrived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { cls, target, _ in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        core.requestBegan()
        return Unmanaged.passRetained(RequestContext(target: target, arrival: .now())).toOpaque()
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

    /// MHD_OPTION_NOTIFY_COMPLETED: the request is over, whichever way.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, context, termination in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
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
