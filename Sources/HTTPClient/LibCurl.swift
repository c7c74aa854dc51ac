import CCurl
import MemoCore

/// libcurl's functions, resolved from `libcurl.so.4` the first time a
/// command reaches a server (`memoapp sync`) instead of being linked, so
/// every other command starts without it and its TLS stack (see
/// `SharedLibrary`). Declarations come from Debian's libcurl4-openssl-dev
/// header through CCurl (https://curl.se/libcurl/c/); the variadic
/// `curl_easy_setopt` and `curl_easy_getinfo` are called through CCurl's
/// fixed-argument helpers.
struct LibCurl: @unchecked Sendable {
    static let soname = "libcurl.so.4"
    static let debianPackage = "libcurl4"

    private static let shared = load()

    static func loaded() throws(MemoError) -> LibCurl {
        try shared.get()
    }

    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    let slistAppend: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    /// `curl_easy_setopt` and `curl_easy_getinfo`, for CCurl's helpers.
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

    private static func load() -> Result<LibCurl, MemoError> {
        SharedLibrary.load(soname, debianPackage: debianPackage,
                           purpose: Localized(en: "reaching a server (libcurl)", ko: "서버 연결(libcurl)"),
                           resolving: LibCurl.init(resolvingFrom:))
    }

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        let globalInit: @convention(c) (Int) -> CURLcode = try symbols.function("curl_global_init")
        // Once, before any other call and before threads: what libcurl asks.
        guard globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            throw MemoError(.internalFailure, en: "libcurl could not initialise", ko: "libcurl을 초기화할 수 없습니다")
        }
        easyInit = try symbols.function("curl_easy_init")
        easyCleanup = try symbols.function("curl_easy_cleanup")
        easyPerform = try symbols.function("curl_easy_perform")
        easyStrerror = try symbols.function("curl_easy_strerror")
        slistAppend = try symbols.function("curl_slist_append")
        slistFreeAll = try symbols.function("curl_slist_free_all")
        setopt = try symbols.function("curl_easy_setopt")
        getinfo = try symbols.function("curl_easy_getinfo")
    }
}
