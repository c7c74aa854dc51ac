#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// libsndfile's functions, resolved from `libsndfile.so.1` the first time a
/// voice command needs them instead of being linked (see `SharedLibrary`).
///
/// Linking libsndfile made every memoapp process, `memoapp todo add` as much
/// as `memoapp voice import`, map and relocate it and the seven codec
/// libraries it depends on (FLAC, Vorbis, Vorbisenc, Opus, Ogg, mpg123, LAME):
/// most of a millisecond of every start.
/// Each property is the libsndfile function of the same name
/// (http://libsndfile.github.io/libsndfile/api.html), e.g. `openFD` is `sf_open_fd`.
public struct LibSndFile: Sendable {
    /// The library's file name (its soname), as `dlopen` looks it up.
    public static let soname = "libsndfile.so.1"
    /// The Debian package that installs it.
    public static let debianPackage = "libsndfile1"

    /// The library, or why it cannot be used. Swift runs a static property's
    /// initialiser once, on first use, even when threads race for it.
    private static let shared = load(soname)

    /// libsndfile, loaded on the first call; an `internalFailure` naming the
    /// library and its Debian package when it is missing or lacks a function.
    public static func loaded() throws -> LibSndFile {
        try shared.get()
    }

    /// libsndfile's version string, e.g. `libsndfile-1.2.0`.
    public var version: String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = command(nil, Int32(SFC_GET_LIB_VERSION), &buffer, Int32(buffer.count))
        return String(cString: buffer)
    }

    let openFD: @convention(c) (Int32, Int32, UnsafeMutablePointer<SF_INFO>?, Int32) -> OpaquePointer?
    let openVirtual: @convention(c) (UnsafeMutablePointer<SF_VIRTUAL_IO>?, Int32, UnsafeMutablePointer<SF_INFO>?,
                                     UnsafeMutableRawPointer?) -> OpaquePointer?
    let close: @convention(c) (OpaquePointer?) -> Int32
    let error: @convention(c) (OpaquePointer?) -> Int32
    let strerror: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let errorNumber: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let command: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?, Int32) -> Int32
    let formatCheck: @convention(c) (UnsafePointer<SF_INFO>?) -> Int32
    let getString: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    let setString: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Int32
    let readfShort: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int16>?, sf_count_t) -> sf_count_t
    let readfInt: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, sf_count_t) -> sf_count_t
    let readfFloat: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, sf_count_t) -> sf_count_t
    let writefInt: @convention(c) (OpaquePointer?, UnsafePointer<Int32>?, sf_count_t) -> sf_count_t
    let writefFloat: @convention(c) (OpaquePointer?, UnsafePointer<Float>?, sf_count_t) -> sf_count_t
    let seek: @convention(c) (OpaquePointer?, sf_count_t, Int32) -> sf_count_t

    /// What needs libsndfile, as errors say it.
    static let purpose = Localized(en: "voice commands (libsndfile)", ko: "음성 명령(libsndfile)")

    /// Loads `library` (a soname or path) and resolves every function above
    /// from it. The library stays loaded for the life of the process once
    /// every function resolved; it is unloaded again when one is missing.
    static func load(_ library: String) -> Result<LibSndFile, MemoError> {
        SharedLibrary.load(library, debianPackage: debianPackage, purpose: purpose,
                           resolving: LibSndFile.init(resolvingFrom:))
    }

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        openFD = try symbols.function("sf_open_fd")
        openVirtual = try symbols.function("sf_open_virtual")
        close = try symbols.function("sf_close")
        error = try symbols.function("sf_error")
        strerror = try symbols.function("sf_strerror")
        errorNumber = try symbols.function("sf_error_number")
        command = try symbols.function("sf_command")
        formatCheck = try symbols.function("sf_format_check")
        getString = try symbols.function("sf_get_string")
        setString = try symbols.function("sf_set_string")
        readfShort = try symbols.function("sf_readf_short")
        readfInt = try symbols.function("sf_readf_int")
        readfFloat = try symbols.function("sf_readf_float")
        writefInt = try symbols.function("sf_writef_int")
        writefFloat = try symbols.function("sf_writef_float")
        seek = try symbols.function("sf_seek")
    }
}
