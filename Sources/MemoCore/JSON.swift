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

    static func writeEscaped(_ text: String, to out: inout String) {
        // Most text needs no escape: appended whole, it costs one copy
        // instead of a scalar-by-scalar append (the server's lists are made
        // of thousands of such strings). 0xE2 starts U+2028 and U+2029, so
        // text holding it takes the careful path below.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
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
