import CJansson
import Glibc

extension JSON {
    /// Parses one JSON document (RFC 8259; any value at the top, not only an
    /// object or array) with Jansson, strictly: a duplicate key, invalid UTF-8,
    /// an escaped lone surrogate, an integer outside Int64, a number too large
    /// for a Double, nesting deeper than Jansson's 2048 levels, or anything
    /// after the value is refused with a `JSONSyntaxError` naming the line and
    /// column. `\u0000` is allowed in strings, since memo text may hold NUL;
    /// Jansson refuses it in object keys.
    ///
    /// Objects keep the document's key order (Jansson iterates in insertion
    /// order). Numbers without a fraction or exponent become `.int`, the rest
    /// `.double`: `1.0` and `1e2` are doubles. A number too small for a Double
    /// (`1e-400`) reads as 0, as strtod gives it.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> JSON {
        if let result = try bytes.withContiguousStorageIfAvailable({ try parse(buffer: $0) }) {
            return result
        }
        return try Array(bytes).withUnsafeBufferPointer { try parse(buffer: $0) }
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) throws -> JSON {
        let jansson = try LibJansson.loaded()
        // https://jansson.readthedocs.io/en/2.14/apiref.html#decoding
        let flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL
        var error = json_error_t()
        // Jansson refuses a null buffer even when its length is 0.
        var empty: UInt8 = 0
        let root: UnsafeMutablePointer<json_t>? = withUnsafePointer(to: &empty) { emptyPointer in
            let start = buffer.baseAddress ?? emptyPointer
            return start.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                jansson.loadb($0, buffer.count, Int(flags), &error)
            }
        }
        guard let root else { throw JSONSyntaxError(error) }
        // The tree is Jansson's until converted; children are borrowed from it.
        defer { jansson.delete(root) }
        return value(of: root, jansson)
    }

    /// Converts a Jansson value. Recursion is bounded by Jansson's depth limit.
    private static func value(of node: UnsafeMutablePointer<json_t>, _ jansson: LibJansson) -> JSON {
        switch cjansson_type(node) {
        case JSON_OBJECT:
            var members: [(String, JSON)] = []
            members.reserveCapacity(jansson.objectSize(node))
            var iterator = jansson.objectIterator(node)
            while let current = iterator {
                let key = string(jansson.objectIteratorKey(current), length: jansson.objectIteratorKeyLength(current))
                if let member = jansson.objectIteratorValue(current) { members.append((key, value(of: member, jansson))) }
                iterator = jansson.objectIteratorNext(node, current)
            }
            return .object(members)
        case JSON_ARRAY:
            let count = jansson.arraySize(node)
            var items: [JSON] = []
            items.reserveCapacity(count)
            for index in 0..<count {
                if let item = jansson.arrayGet(node, index) { items.append(value(of: item, jansson)) }
            }
            return .array(items)
        case JSON_STRING:
            return .string(string(jansson.stringValue(node), length: jansson.stringLength(node)))
        case JSON_INTEGER:
            return .int(Int64(jansson.integerValue(node)))
        case JSON_REAL:
            return .double(jansson.realValue(node))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }

    /// Jansson's strings are valid UTF-8 (it checks while parsing) and may hold NUL,
    /// so they are read by length, not up to the first zero byte.
    private static func string(_ pointer: UnsafePointer<CChar>?, length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// Why `JSON.parse` refused a document: where (1-based line and column, the
/// column counted in characters) and Jansson's reason, in English.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the offending token, from 1.
    public let line: Int
    /// The column of the offending token's last character, from 1; 0 before the first.
    public let column: Int
    /// Bytes read before the error was noticed.
    public let byteOffset: Int
    /// Jansson's words, e.g. `duplicate object key near '"a"'`.
    public let reason: String

    /// An error at a place, for tests and other parsers.
    public init(line: Int, column: Int, byteOffset: Int, reason: String) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.reason = reason
    }

    init(_ error: json_error_t) {
        var text = error.text
        // The last byte of `text` holds Jansson's error code, not text.
        let reason = withUnsafeBytes(of: &text) { raw -> String in
            let bytes = raw.prefix(Int(JSON_ERROR_TEXT_LENGTH) - 1)
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        self.init(line: Int(error.line), column: Int(error.column), byteOffset: Int(error.position),
                  reason: reason)
    }

    /// `invalid JSON at line 4, column 3: invalid token near 'x'`.
    public var description: String { message.en }

    /// The failure in both languages; Jansson's reason stays in English.
    public var message: Localized {
        Localized(en: "invalid JSON at line \(line), column \(column): \(reason)",
                  ko: "JSON 형식이 잘못되었습니다 (\(line)행 \(column)열): \(reason)")
    }

    /// The bad-input error a user sees, its message starting with `source`
    /// (a file name) when given.
    public func memoError(source: String? = nil) -> MemoError {
        let prefix = source.map { "\($0): " } ?? ""
        return MemoError(.badInput, en: prefix + message.en, ko: prefix + message.ko)
    }
}
