import CSodium
import MemoCore

/// libsodium's functions, resolved from `libsodium.so.23` the first time an
/// API token is made or checked instead of being linked, so every other
/// command starts without it (see `SharedLibrary`). Declarations come from
/// Debian's libsodium-dev header through CSodium
/// (https://doc.libsodium.org/). `sodium_init` has run once loaded, as the
/// library asks before any other call.
struct LibSodium: Sendable {
    static let soname = "libsodium.so.23"
    static let debianPackage = "libsodium23"

    private static let shared = load(soname)

    static func loaded() throws(MemoError) -> LibSodium {
        try shared.get()
    }

    let randomBytes: @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
    let sha256: @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UInt64) -> Int32
    let memcmp: @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?, Int) -> Int32
    let sha256Init: @convention(c) (UnsafeMutablePointer<crypto_hash_sha256_state>?) -> Int32
    let sha256Update: @convention(c) (UnsafeMutablePointer<crypto_hash_sha256_state>?, UnsafePointer<UInt8>?, UInt64) -> Int32
    let sha256Final: @convention(c) (UnsafeMutablePointer<crypto_hash_sha256_state>?, UnsafeMutablePointer<UInt8>?) -> Int32

    /// `count` bytes from the system's CSPRNG (getrandom, through libsodium).
    func random(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randomBytes($0.baseAddress, $0.count) }
        return bytes
    }

    /// The SHA-256 digest of `bytes` (32 bytes).
    func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        digest.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                _ = sha256(out.baseAddress, input.baseAddress, UInt64(input.count))
            }
        }
        return digest
    }

    /// Whether `a` and `b` are equal, in a time that depends only on their
    /// length (a secret's digest compared byte by byte would leak how many
    /// leading bytes matched).
    func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in memcmp(left.baseAddress, right.baseAddress, a.count) } } == 0
    }

    private static func load(_ library: String) -> Result<LibSodium, MemoError> {
        SharedLibrary.load(library, debianPackage: debianPackage,
                           purpose: Localized(en: "API tokens (libsodium)", ko: "API 토큰(libsodium)"),
                           resolving: LibSodium.init(resolvingFrom:))
    }

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        let initialize: @convention(c) () -> Int32 = try symbols.function("sodium_init")
        // 0: initialised now; 1: already was; -1: it cannot work (no entropy source).
        guard initialize() >= 0 else {
            throw MemoError(.internalFailure, en: "libsodium could not initialise (no source of randomness)",
                            ko: "libsodium을 초기화할 수 없습니다 (난수 원천 없음)")
        }
        randomBytes = try symbols.function("randombytes_buf")
        sha256 = try symbols.function("crypto_hash_sha256")
        memcmp = try symbols.function("sodium_memcmp")
        sha256Init = try symbols.function("crypto_hash_sha256_init")
        sha256Update = try symbols.function("crypto_hash_sha256_update")
        sha256Final = try symbols.function("crypto_hash_sha256_final")
    }
}
