/// A uid as a set or dictionary key that takes little memory, for the
/// millions of uids an import checks: a well-formed one (32 lowercase hex
/// digits with dashes, as `UUID4.isWellFormed` checks) as two numbers, any
/// other text as itself.
public struct UIDKey: Hashable, Sendable {
    var high: UInt64 = 0
    var low: UInt64 = 0
    var other: String?

    public init(_ uid: String) {
        var position = 0
        var isWellFormed = uid.utf8.count == 36
        if isWellFormed {
            for byte in uid.utf8 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    isWellFormed = isWellFormed && byte == UInt8(ascii: "-")
                } else if let value = UIDKey.hexValue(byte) {
                    if position < 18 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
                } else {
                    isWellFormed = false
                }
                position += 1
            }
        }
        if !isWellFormed {
            self = UIDKey()
            other = uid
        }
    }

    private init() {}

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
