#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// libsndfile's functions, resolved from `libsndfile.so.1` the first time a
/// voice command needs them instead of being linked.
///
/// Linking libsndfile made every memoapp process, `memoapp todo add` as much
/// as `memoapp voice import`, map and relocate it and the seven codec
/// libraries it depends on (FLAC, Vorbis, Vorbisenc, Opus, Ogg, mpg123, LAME):
/// most of a millisecond of every start. The declarations still come from
/// libsndfile's own header (the CSndFile module); only the linking moved here.
/// Each property is the libsndfile function of the same name
/// (http://libsndfile.github.io/libsndfile/api.html), e.g. `open` is `sf_open`.
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

    let open: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<SF_INFO>?) -> OpaquePointer?
    let openFD: @convention(c) (Int32, Int32, UnsafeMutablePointer<SF_INFO>?, Int32) -> OpaquePointer?
    let openVirtual: @convention(c) (UnsafeMutablePointer<SF_VIRTUAL_IO>?, Int32, UnsafeMutablePointer<SF_INFO>?,
                                     UnsafeMutableRawPointer?) -> OpaquePointer?
    let close: @convention(c) (OpaquePointer?) -> Int32
    let error: @convention(c) (OpaquePointer?) -> Int32
    let strerror: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
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

    /// Loads `library` (a soname or path) and resolves every function above
    /// from it. The library stays loaded for the life of the process once
    /// every function resolved; it is unloaded again when one is missing.
    static func load(_ library: String) -> Result<LibSndFile, MemoError> {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let reason = lastLoaderError()
            return .failure(MemoError(
                .internalFailure,
                en: "voice commands need libsndfile, but \(library) cannot be loaded (\(reason)); "
                    + "install the Debian package \(debianPackage)",
                ko: "음성 명령에는 libsndfile이 필요한데 \(library)을(를) 불러올 수 없습니다 (\(reason)). "
                    + "Debian 패키지 \(debianPackage)을(를) 설치하세요"))
        }
        do {
            return .success(try LibSndFile(resolvingFrom: SymbolTable(handle: handle, library: library)))
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }

    private init(resolvingFrom symbols: SymbolTable) throws(MemoError) {
        open = try symbols.function("sf_open")
        openFD = try symbols.function("sf_open_fd")
        openVirtual = try symbols.function("sf_open_virtual")
        close = try symbols.function("sf_close")
        error = try symbols.function("sf_error")
        strerror = try symbols.function("sf_strerror")
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

// MARK: - Resolving

/// The functions of one loaded library, by name.
private struct SymbolTable {
    let handle: UnsafeMutableRawPointer
    let library: String

    /// The function `name` as the C function type `F`, which must be its real
    /// signature (the declarations in sndfile.h).
    func function<F>(_ name: String) throws(MemoError) -> F {
        guard let address = dlsym(handle, name) else {
            let reason = lastLoaderError()
            throw MemoError(
                .internalFailure,
                en: "\(library) has no function \(name) (\(reason)); "
                    + "install the Debian package \(LibSndFile.debianPackage) from a current Debian release",
                ko: "\(library)에 \(name) 함수가 없습니다 (\(reason)). "
                    + "최신 Debian 릴리스의 \(LibSndFile.debianPackage) 패키지를 설치하세요")
        }
        return unsafeBitCast(address, to: F.self)
    }
}

/// `dlerror()`'s text for the last failed `dlopen` or `dlsym`.
private func lastLoaderError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown reason"
}
