#if canImport(Glibc)
import Glibc
#endif

/// Reads a JSON document whose top level is an object (or an array) too
/// large to hold, a member or an element at a time: for imports of millions
/// of items in bounded memory. Only the structure is scanned here (where a
/// value ends: strings with their escapes, nested brackets); each value is
/// then parsed, and checked strictly, by `JSON.parse` (Jansson) on its own
/// bytes, so nothing here decides what a string or a number means.
///
/// Syntax errors, here or in Jansson, name the line and column in the whole
/// document, as `JSON.parse` would for the same text.
public struct JSONObjectStream {
    /// Where the bytes come from: read front to back, and again from the
    /// start for a second pass.
    public enum Source {
        /// A regular file, read through `descriptor` in pieces.
        case file(descriptor: Int32, path: String)
        /// Bytes already in memory (standard input).
        case bytes([UInt8])
    }

    /// What the scan finds at the top level.
    public enum Event {
        /// A member of the top-level object whose key is not streamed, whole.
        case member(key: String, value: JSONReader)
        /// The streamed array member `key` begins; its elements follow.
        case arrayStarted(key: String)
        /// An element of the streamed array member `key`.
        case element(key: String, value: JSONReader)
    }

    public let source: Source
    /// What messages start with: the file's name.
    public let name: String

    public init(_ source: Source, name: String) {
        self.source = source
        self.name = name
    }

    /// Scans the top-level object once, front to back. Members whose key is in
    /// `streamedArrays` and whose value is an array come element by element
    /// (`parseElements` false: skipped unparsed, which is fast); the others
    /// whole. When `streamedArrays` holds `""`, the top level must be an
    /// array instead, streamed as the member key `""`.
    /// - Throws: `.badInput` naming the line and column of a syntax error,
    ///   the JSON path of a duplicate key; whatever `handle` throws.
    public func scan(streamedArrays: Set<String>, parseElements: Bool = true,
                     _ handle: (Event) throws -> Void) throws {
        try scan(streamedArrays: streamedArrays, skippingElementsOf: parseElements ? [] : streamedArrays, handle)
    }

    /// The same scan, with the elements of the streamed arrays in `skipped`
    /// skipped unparsed (their array still starts with `.arrayStarted`) and
    /// those of the others parsed: one pass can find where the large arrays
    /// are and read a small one whole.
    /// - Returns: how many elements each streamed array held, skipped or not
    ///   (what a later pass over them can show its progress against).
    @discardableResult
    public func scan(streamedArrays: Set<String>, skippingElementsOf skipped: Set<String>,
                     _ handle: (Event) throws -> Void) throws -> [String: Int] {
        var scanner = try ByteScanner(source, name: name)
        var counts: [String: Int] = [:]
        do {
            try scan(&scanner, streamedArrays: streamedArrays, skipped: skipped, counts: &counts, handle)
        } catch let error as JSONSyntaxError {
            throw error.memoError(source: name)
        }
        return counts
    }

    // MARK: - Private

    private func scan(_ scanner: inout ByteScanner, streamedArrays: Set<String>, skipped: Set<String>,
                      counts: inout [String: Int], _ handle: (Event) throws -> Void) throws {
        try scanner.skipWhitespace()
        let first = try scanner.peek()
        if streamedArrays.contains("") {
            switch first {
            case UInt8(ascii: "["):
                counts[""] = try streamArray(&scanner, key: "", path: .root, parse: !skipped.contains(""), handle)
            // Not parsed: it may be huge, and only its kind matters for the message.
            case UInt8(ascii: "{"): _ = try JSONReader(.object([]), source: name).elements()
            default: _ = try JSONReader(try parseValue(&scanner), source: name).elements()
            }
            try scanner.skipWhitespace()
            guard try scanner.peek() == nil else { throw scanner.syntaxError("end of file expected") }
            return
        }
        switch first {
        case UInt8(ascii: "["):
            // Not parsed: it may be huge, and only its kind matters for the message.
            _ = try JSONReader(.array([]), source: name).members()
        case UInt8(ascii: "{"):
            scanner.advance()
            var keys: Set<String> = []
            try scanner.skipWhitespace()
            if try scanner.peek() == UInt8(ascii: "}") {
                scanner.advance()
            } else {
                while true {
                    try scanner.skipWhitespace()
                    let keyPlace = scanner.place
                    let key = try decodeString(&scanner)
                    guard keys.insert(key).inserted else {
                        throw JSONSyntaxError(line: keyPlace.line, column: keyPlace.column, byteOffset: keyPlace.offset,
                                              reason: "duplicate object key")
                    }
                    try scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"), "':'")
                    try scanner.skipWhitespace()
                    let path = JSONPath.root.appending(key: key)
                    if streamedArrays.contains(key), try scanner.peek() == UInt8(ascii: "[") {
                        counts[key] = try streamArray(&scanner, key: key, path: path, parse: !skipped.contains(key), handle)
                    } else {
                        let value = try parseValue(&scanner)
                        try handle(.member(key: key, value: JSONReader(value, path: path, source: name)))
                    }
                    try scanner.skipWhitespace()
                    if try scanner.peek() == UInt8(ascii: ",") {
                        scanner.advance()
                        continue
                    }
                    try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
                    break
                }
            }
        default:
            // A lone scalar: "expected an object, found a number", or its syntax error.
            _ = try JSONReader(try parseValue(&scanner), source: name).members()
        }
        try scanner.skipWhitespace()
        guard try scanner.peek() == nil else { throw scanner.syntaxError("end of file expected") }
    }

    /// Streams one array; returns how many elements it held.
    private func streamArray(_ scanner: inout ByteScanner, key: String, path: JSONPath, parse: Bool,
                             _ handle: (Event) throws -> Void) throws -> Int {
        scanner.advance()  // [
        try handle(.arrayStarted(key: key))
        try scanner.skipWhitespace()
        if try scanner.peek() == UInt8(ascii: "]") {
            scanner.advance()
            return 0
        }
        var index = 0
        while true {
            try scanner.skipWhitespace()
            if parse {
                let value = try parseValue(&scanner)
                try handle(.element(key: key, value: JSONReader(value, path: path.appending(index: index), source: name)))
            } else {
                try scanner.skipValue()
            }
            index += 1
            try scanner.skipWhitespace()
            if try scanner.peek() == UInt8(ascii: ",") {
                scanner.advance()
                continue
            }
            try scanner.expect(UInt8(ascii: "]"), "',' or ']'")
            return index
        }
    }

    /// The next value, parsed by Jansson from its own bytes; its errors are
    /// moved to where the value stands in the document.
    private func parseValue(_ scanner: inout ByteScanner) throws -> JSON {
        let start = scanner.place
        return try scanner.withValue { bytes in
            do {
                return try JSON.parse(bytes)
            } catch let error as JSONSyntaxError {
                let column = error.line <= 1 ? start.column + error.column : error.column
                throw JSONSyntaxError(line: start.line + max(error.line, 1) - 1, column: column,
                                      byteOffset: start.offset + error.byteOffset, reason: error.reason)
            }
        }
    }

    private func decodeString(_ scanner: inout ByteScanner) throws -> String {
        guard try scanner.peek() == UInt8(ascii: "\"") else { throw scanner.syntaxError("string or '}' expected") }
        guard case let .string(text) = try parseValue(&scanner) else { throw scanner.syntaxError("string expected") }
        return text
    }
}

/// Bytes read a piece at a time, with the line and column of the next one.
private struct ByteScanner {
    struct Place {
        var line = 1
        /// Characters before the next one on its line (Jansson's column of
        /// the previous character).
        var column = 0
        var offset = 0
    }

    private let descriptor: Int32?
    private let path: String
    private var buffer: [UInt8]
    private var position = 0
    private var end = 0
    private var isAtEnd = false
    private(set) var place = Place()
    /// The bytes of the value being captured.
    private var captured: [UInt8] = []

    init(_ source: JSONObjectStream.Source, name: String) throws {
        switch source {
        case let .file(descriptor, path):
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw ByteScanner.readError(path, errno) }
            self.descriptor = descriptor
            self.path = path
            buffer = [UInt8](repeating: 0, count: 1 << 20)
        case let .bytes(bytes):
            descriptor = nil
            path = name
            buffer = bytes
            end = bytes.count
            isAtEnd = true
        }
    }

    mutating func peek() throws -> UInt8? {
        if position == end, try !refill() { return nil }
        return buffer[position]
    }

    /// Moves past the byte `peek` returned.
    mutating func advance() {
        let byte = buffer[position]
        position += 1
        place.offset += 1
        if byte == UInt8(ascii: "\n") {
            place.line += 1
            place.column = 0
        } else if byte & 0xC0 != 0x80 {
            place.column += 1
        }
    }

    mutating func skipWhitespace() throws {
        while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard try peek() == byte else { throw syntaxError("\(what) expected") }
        advance()
    }

    /// Hands `body` the bytes of the value that starts here, up to where its
    /// structure ends; what they mean is for the parser to check.
    mutating func withValue<T>(_ body: ([UInt8]) throws -> T) throws -> T {
        captured.removeAll(keepingCapacity: true)
        // One huge value must not keep its buffer for the rest of the scan.
        defer { if captured.capacity > 1 << 24 { captured = [] } }
        try walkValue(keeping: true)
        return try body(captured)
    }

    /// Moves past the value that starts here without keeping it.
    mutating func skipValue() throws {
        try walkValue(keeping: false)
    }

    func syntaxError(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(line: place.line, column: place.column + 1, byteOffset: place.offset, reason: reason)
    }

    // MARK: - Private

    /// Where the value that starts here ends, found a buffer at a time (this
    /// loop sees every byte of an import, so it keeps its state in locals).
    private mutating func walkValue(keeping: Bool) throws {
        guard let first = try peek() else { throw syntaxError("premature end of input") }
        switch first {
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            throw syntaxError("unexpected '\(Character(Unicode.Scalar(first)))'")
        case _ where ByteScanner.endsScalar(first):
            throw syntaxError("value expected")
        default:
            break
        }
        // A scalar (number, true, false, null: the parser judges its bytes)
        // ends before the first byte that cannot be part of one; a string or
        // a container after the byte that closes it.
        let isScalar = first != UInt8(ascii: "\"") && first != UInt8(ascii: "[") && first != UInt8(ascii: "{")
        var depth = 0
        var isInString = false
        var isEscaped = false
        var isDone = false
        while !isDone {
            if position == end, try !refill() {
                if isScalar { return }
                throw syntaxError("premature end of input")
            }
            var index = position
            var line = place.line
            var column = place.column
            buffer.withUnsafeBufferPointer { bytes in
                while index < end {
                    if isInString && !isEscaped {
                        // Most of a document is the inside of strings: their
                        // plain bytes are passed here with the least work.
                        // A raw line end in a string is the parser's error;
                        // it still moves the line.
                        while index < end {
                            let byte = bytes[index]
                            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\n") { break }
                            column &+= byte & 0xC0 != 0x80 ? 1 : 0
                            index &+= 1
                        }
                        guard index < end else { return }
                    }
                    let byte = bytes[index]
                    if isScalar {
                        if ByteScanner.endsScalar(byte) {
                            isDone = true
                            return
                        }
                    } else if isInString {
                        if isEscaped {
                            isEscaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            isEscaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            isInString = false
                            isDone = depth == 0
                        }
                    } else if byte == UInt8(ascii: "\"") {
                        isInString = true
                    } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                        depth += 1
                    } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                        depth -= 1
                        isDone = depth == 0
                    }
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        column = 0
                    } else if byte & 0xC0 != 0x80 {
                        column += 1
                    }
                    index += 1
                    if isDone { return }
                }
            }
            if keeping { captured.append(contentsOf: buffer[position..<index]) }
            place.offset += index - position
            place.line = line
            place.column = column
            position = index
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09: return true
        default: return false
        }
    }

    /// Reads the next piece of a file; false at its end.
    private mutating func refill() throws -> Bool {
        guard !isAtEnd, let descriptor else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ByteScanner.readError(path, errno) }
            position = 0
            end = count
            if count == 0 { isAtEnd = true }
            return count > 0
        }
    }

    private static func readError(_ path: String, _ failure: Int32) -> MemoError {
        let reason = String(cString: strerror(failure))
        return MemoError(.noInput, en: "cannot read \(path): \(reason)", ko: "\(path)을(를) 읽을 수 없습니다: \(reason)")
    }
}
