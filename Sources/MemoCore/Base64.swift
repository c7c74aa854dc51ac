/// Standard Base64 (RFC 4648 §4, with `=` padding), for binary data inside
/// JSON documents such as a voice memo's waveform peaks in an export.
public enum Base64 {
    /// The text form of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(rest == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil unless it is canonical Base64: the
    /// standard alphabet, no white space, a length that is a multiple of 4,
    /// padding only at the end and no stray bits before it (so every byte
    /// sequence has exactly one accepted text).
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var padding = 0
            if index + 4 == input.count {
                let equals = UInt8(ascii: "=")
                if input[index + 3] == equals { padding = input[index + 2] == equals ? 2 : 1 }
            }
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else {
                    guard let decoded = values[Int(byte)] else { return nil }
                    value = decoded
                }
                group = group << 6 | UInt32(value)
            }
            out.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(group & 0xFF)) }
            // Bits the padding drops must be zero, or two texts would give the same bytes.
            if padding == 2, group & 0xFFFF != 0 { return nil }
            if padding == 1, group & 0xFF != 0 { return nil }
            index += 4
        }
        return out
    }

    // MARK: - Private

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each byte in the alphabet; nil for bytes outside it ("=" included).
    private static let values: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()
}
