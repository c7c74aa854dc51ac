/// A JSON document built in code. Objects keep their keys in the order given,
/// so output reads the same every time and diffs stay small.
///
/// Not `indirect`: arrays and member lists already hold their elements out
/// of line, and an indirect enum put every scalar and string of a document
/// in a heap box of its own (a to-do's object was some twenty allocations,
/// each freed again after serialization).
public enum JSON: Equatable, Sendable {
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

    /// Compact serialization as UTF-8 bytes: what an HTTP body is, without a
    /// String in between (appending many small pieces to a String checks and
    /// grows it piece by piece, most of what a list of to-dos cost the
    /// server). The same writer as `serialized`, so the command line's
    /// documents and the server's bodies are the same bytes.
    public var serializedBytes: [UInt8] {
        JSONByteWriter.collect(capacity: 512) { write(to: &$0) }
    }

    /// Appends the compact serialization to a String or a byte array.
    public func write<Output: JSONOutput>(to out: inout Output) {
        switch self {
        case .null: out.append(ascii: "null")
        case let .bool(value): out.append(ascii: value ? "true" : "false")
        case let .int(value): JSON.writeInteger(value, to: &out)
        case let .double(value):
            // JSON has no NaN or infinity; null is the honest rendering.
            if value.isFinite {
                if value == value.rounded(), abs(value) < 1e15 {
                    JSON.writeInteger(Int64(value), to: &out)
                } else {
                    out.append(text: "\(value)")
                }
            } else {
                out.append(ascii: "null")
            }
        case let .string(value): JSON.writeEscaped(value, to: &out)
        case let .array(items):
            out.append(ascii: "[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(ascii: ",") }
                item.write(to: &out)
            }
            out.append(ascii: "]")
        case let .object(members):
            out.append(ascii: "{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(ascii: ",") }
                JSON.writeEscaped(key, to: &out)
                out.append(ascii: ":")
                value.write(to: &out)
            }
            out.append(ascii: "}")
        }
    }

    /// Decimal digits of `value`, made on the stack rather than as a String.
    static func writeInteger<Output: JSONOutput>(_ value: Int64, to out: inout Output) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a sign and 20 digits fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            out.append(utf8: UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[start...]))
        }
    }

    /// Appends `text` as a JSON string, quotes included. Runs of bytes that
    /// need no escape are appended whole: documents of millions of strings
    /// (exports) spend their time here.
    public static func writeEscaped<Output: JSONOutput>(_ text: String, to out: inout Output) {
        out.append(ascii: "\"")
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
                out.append(utf8: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                out.append(text: escape)
                index += length
                runStart = index
            }
            out.append(utf8: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(ascii: "\"")
    }
}

/// Where `JSON.write(to:)` puts a document: a String (the command line,
/// exports) or UTF-8 bytes (HTTP bodies). One writer serves both.
public protocol JSONOutput {
    /// Appends valid UTF-8 (whole characters: the writer never splits one).
    mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(text: String)
    mutating func append(ascii: StaticString)
}

extension String: JSONOutput {
    public mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) { self += String(decoding: bytes, as: UTF8.self) }
    public mutating func append(text: String) { self += text }
    public mutating func append(ascii: StaticString) { self += ascii.description }
}

extension Array: JSONOutput where Element == UInt8 {
    public mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
    public mutating func append(text: String) { append(contentsOf: text.utf8) }
    public mutating func append(ascii: StaticString) {
        // Most pieces are one byte (quotes, commas, colons, brackets), and
        // appending the byte itself skips a buffer append's bookkeeping:
        // under perf, those appends were a fifth of a to-do list's serialization.
        if ascii.hasPointerRepresentation && ascii.utf8CodeUnitCount == 1 {
            append(ascii.utf8Start.pointee)
        } else {
            ascii.withUTF8Buffer { append(contentsOf: $0) }
        }
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
