import CXXHash

/// Stable uids for items imported from sources that carry no identity of their
/// own (a todo.txt line, a Markdown file): the same content always gives the
/// same uid, so importing a file twice adds nothing the second time.
///
/// The uid is XXH3-128 of the content, seeded by a namespace so that equal
/// bytes from different kinds of source do not collide, written as a UUID of
/// version 8 (RFC 9562's "custom" version) so it has the form every uid has.
public enum DerivedUID {
    /// The uid of `content` from a source of kind `namespace` (e.g. `todo.txt`).
    public static func make(namespace: String, content: some Collection<UInt8>) -> String {
        // xxHash is inlined from its header, which prefixes its names with
        // XXH_INLINE_ and renames its types, so none is named here (see
        // Sources/CXXHash/shim.h).
        let seed = Array(namespace.utf8).withUnsafeBytes { XXH_INLINE_XXH3_64bits($0.baseAddress, $0.count) }
        let hash = content.withContiguousStorageIfAvailable { buffer in
            XXH_INLINE_XXH3_128bits_withSeed(buffer.baseAddress, buffer.count, seed)
        } ?? Array(content).withUnsafeBytes { XXH_INLINE_XXH3_128bits_withSeed($0.baseAddress, $0.count, seed) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [hash.high64, hash.low64] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10xx
        return UUID4.format(bytes)
    }
}
