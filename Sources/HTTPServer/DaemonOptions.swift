#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD

/// The flags and the MHD_OPTION_ARRAY that start libmicrohttpd for a
/// configuration (https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dconst.html).
enum DaemonOptions {
    /// Starts libmicrohttpd for `core` on `listeningSocket`, or nil when it
    /// refuses (its diagnostic, if any, is in `core.diagnosticForError`).
    /// On success libmicrohttpd holds a reference to `core` until
    /// `Server.stop` releases it after MHD_stop_daemon.
    static func start(_ core: ServerCore, listeningSocket: Int32) -> OpaquePointer? {
        let configuration = core.configuration
        let retained = Unmanaged.passRetained(core)
        let context = retained.toOpaque()
        // Polling and handlers on an internal pool of epoll threads; suspend
        // and resume for event streams (which also sets up the inter-thread
        // channel MHD_quiesce_daemon needs); every diagnostic to our logger.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if configuration.address.family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }

        // PEM text must stay in place while libmicrohttpd reads it at start.
        let certificate = configuration.tls.map { strdup($0.certificatePEM)! }
        let key = configuration.tls.map { strdup($0.privateKeyPEM)! }
        defer {
            certificate.map { free($0) }
            key.map { free($0) }
        }

        // The logger goes first so that messages about later options reach it.
        var options: [MHD_OptionItem] = [
            item(.EXTERNAL_LOGGER, cmhd_format_message_address(), UnsafeMutableRawPointer(core.messageSink)),
            item(.LISTEN_SOCKET, Int(listeningSocket)),
            item(.THREAD_POOL_SIZE, configuration.threadCount),
            item(.CONNECTION_TIMEOUT, configuration.connectionTimeout),
            item(.CONNECTION_LIMIT, configuration.connectionLimit),
            item(.CONNECTION_MEMORY_LIMIT, configuration.memoryPerConnection),
            item(.STRICT_FOR_CLIENT, configuration.isStrict ? 1 : 0),
            item(.URI_LOG_CALLBACK, address(of: Callbacks.requestLineArrived), context),
            item(.UNESCAPE_CALLBACK, address(of: Callbacks.leaveEscaped), context),
            item(.NOTIFY_COMPLETED, address(of: Callbacks.completed), context),
            // The limit per address is the ConnectionGuard's, not
            // MHD_OPTION_PER_IP_CONNECTION_LIMIT: libmicrohttpd refuses at
            // accept, before anything can make room.
            item(.NOTIFY_CONNECTION, address(of: Callbacks.connectionChanged), context),
        ]
        if let certificate, let key {
            options.append(item(.HTTPS_MEM_CERT, 0, UnsafeMutableRawPointer(certificate)))
            options.append(item(.HTTPS_MEM_KEY, 0, UnsafeMutableRawPointer(key)))
        }
        options.append(item(.END, 0))

        let daemon = options.withUnsafeMutableBufferPointer { buffer in
            cmhd_start_daemon(core.library.startDaemonAddress, flags, Callbacks.access, context, buffer.baseAddress)
        }
        if daemon == nil { retained.release() }
        return daemon
    }

    private static func item(_ option: MHD_OPTION, _ value: Int, _ pointer: UnsafeMutableRawPointer? = nil) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: pointer)
    }

    /// A C function pointer as the intptr_t an option array carries it in.
    private static func address<F>(of function: F) -> Int {
        unsafeBitCast(function, to: Int.self)
    }
}
