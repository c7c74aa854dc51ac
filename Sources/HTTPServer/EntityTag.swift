/// Entity tags (RFC 9110 8.8.3) for any body: made from the bytes, and
/// compared with a client's `If-Match` or `If-None-Match` list.
public enum EntityTag {
    /// A strong tag: 64-bit FNV-1a of the bytes, quoted. A change detector,
    /// not a secret (whoever may read the body may see it).
    public static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // Quote, sixteen hex digits, quote, written in place: every item
        // answer makes one, and formatting and joining pieces showed under perf.
        return String(unsafeUninitializedCapacity: 18) { text in
            text[0] = UInt8(ascii: "\"")
            for index in 0..<16 {
                text[1 + index] = EntityTag.hexDigits[Int(truncatingIfNeeded: hash >> (60 - 4 * UInt64(index))) & 0xF]
            }
            text[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether the header's list names `tag`; `*` names any. Weak tags
    /// compare by their opaque part (RFC 9110 13.1.2).
    public static func list(_ header: String, names tag: String) -> Bool {
        header.split(separator: ",").contains { part in
            var candidate = part.drop { $0 == " " || $0 == "\t" }
            while let last = candidate.last, last == " " || last == "\t" { candidate.removeLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag
        }
    }
}

extension EntityTag {
    /// A strong tag naming a revision of a stored item: its number, quoted.
    /// The item's stored fields change only with a new revision; what its
    /// document works out at read time (time spent, overdue) does not count.
    public static func revision(_ rev: Int64) -> String {
        "\"\(rev)\""
    }
}
