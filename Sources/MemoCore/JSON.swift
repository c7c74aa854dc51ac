/// A JSON document built in code. Objects keep their keys in the order given,
/// so output reads the same every time and diffs stay small.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Compact serialization, one line.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .double(value):
            // JSON has no NaN or infinity; null is the honest rendering.
            if value.isFinite {
                if value == value.rounded(), abs(value) < 1e15 { out += String(Int64(value)) } else { out += "\(value)" }
            } else {
                out += "null"
            }
        case let .string(value): JSON.writeEscaped(value, to: &out)
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSON.writeEscaped(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Appends `text` as a JSON string, quotes included. Runs of bytes that
    /// need no escape are appended whole: documents of millions of strings
    /// (exports) spend their time here.
    public static func writeEscaped(_ text: String, to out: inout String) {
        out += "\""
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escape: String
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0..<0x20, 0x7F:
                    let hex = String(byte, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end lines in JavaScript.
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    index += 1
                    continue
                }
                out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                out += escape
                index += length
                runStart = index
            }
            out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]), as: UTF8.self)
        }
        out += "\""
    }
}

// MARK: - Conveniences for building documents

extension JSON {
    public static func int(_ value: Int) -> JSON { .int(Int64(value)) }
    public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    public static func optional(_ value: Timestamp?) -> JSON { value.map(time) ?? .null }
    /// A time as every document shows it: RFC 3339 UTC with milliseconds.
    public static func time(_ value: Timestamp) -> JSON { .string(value.rfc3339Milliseconds) }
    public static func strings(_ values: [String]) -> JSON { .array(values.map(JSON.string)) }
}
