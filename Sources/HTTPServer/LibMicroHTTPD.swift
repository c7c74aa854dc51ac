import CMicroHTTPD
import MemoCore

/// libmicrohttpd's functions, resolved from `libmicrohttpd.so.12` the first
/// time a server starts instead of being linked (see MemoCore's
/// `SharedLibrary`): every other memoapp command starts without mapping it
/// and GnuTLS behind it, and the LGPL library stays a separate, replaceable
/// file. The declarations come from Debian's libmicrohttpd-dev header through
/// CMicroHTTPD; each property is the function of the same name
/// (https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html),
/// e.g. `queueResponse` is `MHD_queue_response`.
struct LibMicroHTTPD: @unchecked Sendable {
    static let soname = "libmicrohttpd.so.12"
    static let debianPackage = "libmicrohttpd12"

    /// Loaded once, on first use; Swift runs a static initialiser once even
    /// when threads race for it.
    private static let shared = load(soname)

    /// libmicrohttpd, or an `internalFailure` naming the library and its package.
    static func loaded() throws(MemoError) -> LibMicroHTTPD {
        try shared.get()
    }

    /// `MHD_start_daemon` and `MHD_get_connection_info` are variadic: Swift
    /// calls them through CMicroHTTPD's fixed-argument wrappers, which take
    /// these raw addresses.
    let startDaemonAddress: UnsafeMutableRawPointer
    let connectionInfoAddress: UnsafeMutableRawPointer

    let quiesceDaemon: @convention(c) (OpaquePointer?) -> Int32
    let stopDaemon: @convention(c) (OpaquePointer?) -> Void
    let connectionValues: @convention(c) (OpaquePointer?, MHD_ValueKind, MHD_KeyValueIteratorN?,
                                          UnsafeMutableRawPointer?) -> Int32
    let queueResponse: @convention(c) (OpaquePointer?, UInt32, OpaquePointer?) -> MHD_Result
    let suspendConnection: @convention(c) (OpaquePointer?) -> Void
    let resumeConnection: @convention(c) (OpaquePointer?) -> Void
    let createResponseFromBuffer: @convention(c) (Int, UnsafeMutableRawPointer?, MHD_ResponseMemoryMode)
        -> OpaquePointer?
    let createResponseFromCallback: @convention(c) (UInt64, Int, MHD_ContentReaderCallback?,
                                                    UnsafeMutableRawPointer?, MHD_ContentReaderFreeCallback?)
        -> OpaquePointer?
    let createResponseFromFileAtOffset: @convention(c) (UInt64, Int32, UInt64) -> OpaquePointer?
    let addResponseHeader: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?)
        -> MHD_Result
    let destroyResponse: @convention(c) (OpaquePointer?) -> Void
    let isFeatureSupported: @convention(c) (MHD_FEATURE) -> MHD_Result
    let version: @convention(c) () -> UnsafePointer<CChar>?

    /// The information of `type` about `connection` (one that takes no
    /// argument), or nil where libmicrohttpd has none yet.
    func connectionInfo(_ connection: OpaquePointer?, _ type: MHD_ConnectionInfoType)
        -> UnsafePointer<MHD_ConnectionInfo>? {
        cmhd_connection_info(connectionInfoAddress, connection, type)
    }

    static func load(_ library: String) -> Result<LibMicroHTTPD, MemoError> {
        SharedLibrary.load(library, debianPackage: debianPackage,
                           purpose: Localized(en: "the HTTP server (libmicrohttpd)", ko: "HTTP 서버(libmicrohttpd)"),
                           resolving: LibMicroHTTPD.init(resolvingFrom:))
    }

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        startDaemonAddress = try symbols.function("MHD_start_daemon")
        connectionInfoAddress = try symbols.function("MHD_get_connection_info")
        quiesceDaemon = try symbols.function("MHD_quiesce_daemon")
        stopDaemon = try symbols.function("MHD_stop_daemon")
        connectionValues = try symbols.function("MHD_get_connection_values_n")
        queueResponse = try symbols.function("MHD_queue_response")
        suspendConnection = try symbols.function("MHD_suspend_connection")
        resumeConnection = try symbols.function("MHD_resume_connection")
        createResponseFromBuffer = try symbols.function("MHD_create_response_from_buffer")
        createResponseFromCallback = try symbols.function("MHD_create_response_from_callback")
        createResponseFromFileAtOffset = try symbols.function("MHD_create_response_from_fd_at_offset64")
        addResponseHeader = try symbols.function("MHD_add_response_header")
        destroyResponse = try symbols.function("MHD_destroy_response")
        isFeatureSupported = try symbols.function("MHD_is_feature_supported")
        version = try symbols.function("MHD_get_version")
    }
}
