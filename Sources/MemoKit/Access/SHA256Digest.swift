import CSodium
import MemoCore

/// SHA-256 of bytes that arrive in pieces (libsodium's incremental
/// interface): the server tells a retried request body from another one by
/// its digest, so it keeps 32 bytes per remembered request rather than the
/// body, which may be an import of hundreds of megabytes that it never held.
public final class SHA256Digest {
    private let sodium: LibSodium
    // libsodium's state, in memory of its own (it must not move while used).
    private let state = UnsafeMutablePointer<crypto_hash_sha256_state>.allocate(capacity: 1)
    private var isFinished = false

    /// - Throws: `.internalFailure` when libsodium cannot be loaded.
    public init() throws(MemoError) {
        sodium = try LibSodium.loaded()
        _ = sodium.sha256Init(state)
    }

    deinit {
        state.deallocate()
    }

    /// Adds the next piece.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!isFinished, "a finished digest takes no more bytes")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = sodium.sha256Update(state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The digest of every piece added (32 bytes); call once.
    public func finish() -> [UInt8] {
        precondition(!isFinished, "a digest is finished once")
        isFinished = true
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        digest.withUnsafeMutableBufferPointer { _ = sodium.sha256Final(state, $0.baseAddress) }
        return digest
    }

    /// The digest of `bytes` at once.
    public static func of(_ bytes: [UInt8]) throws(MemoError) -> [UInt8] {
        let digest = try SHA256Digest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }
}
