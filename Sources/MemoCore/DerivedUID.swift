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
        let seed = Array(namespace.utf8).withUnsafeBytes { XXH3_64bits($0.baseAddress, $0.count) }
        let hash: XXH128_hash_t
        if let computed = content.withContiguousStorageIfAvailable({ buffer in
            XXH3_128bits_withSeed(buffer.baseAddress, buffer.count, seed)
        }) {
            hash = computed
        } else {
            hash = Array(content).withUnsafeBytes { XXH3_128bits_withSeed($0.baseAddress, $0.count, seed) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [hash.high64, hash.low64] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10xx
        return format(bytes)
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase.
    private static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
