import CXXHash

/// A streaming XXH3-128 checksum (xxHash): fast enough to ride along with
/// the decode without showing up in an import's time.
///
/// The hex form is the canonical (big-endian) one that `xxh128sum` prints.
/// xxHash is compiled in from its header (see Sources/CXXHash/shim.h), which
/// is why its functions carry the `XXH_INLINE_` prefix here. The header also
/// renames its types (xxHash 0.8.1 spells them `XXH_NAMESPACEXXH128_hash_t`),
/// so this file names none.
public final class StreamingChecksum {
    private let state: OpaquePointer

    public init() {
        guard let state = XXH_INLINE_XXH3_createState() else { fatalError("XXH3_createState: out of memory") }
        self.state = state
        XXH_INLINE_XXH3_128bits_reset(state)
    }

    deinit { XXH_INLINE_XXH3_freeState(state) }

    /// Adds the next bytes of the stream.
    public func update(_ bytes: UnsafeRawPointer, count: Int) {
        guard count > 0 else { return }
        XXH_INLINE_XXH3_128bits_update(state, bytes, count)
    }

    /// The checksum of everything added so far, as 32 lowercase hex digits.
    public var hexDigest: String {
        let hash = XXH_INLINE_XXH3_128bits_digest(state)
        // The canonical form (XXH128_canonicalFromHash): the high half, then
        // the low half, each big-endian.
        let canonical = (hash.high64.bigEndian, hash.low64.bigEndian)
        return withUnsafeBytes(of: canonical) { StreamingChecksum.hex($0) }
    }

    /// The checksum of a whole buffer.
    public static func hexDigest(of bytes: [UInt8]) -> String {
        let checksum = StreamingChecksum()
        bytes.withUnsafeBytes { checksum.update($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: $0.count) }
        return checksum.hexDigest
    }

    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
