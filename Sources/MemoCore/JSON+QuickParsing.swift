/// A quick reader of the plain JSON memoapp writes, tried before Jansson by
/// `JSON.parse`: importing an export parses millions of small objects, and
/// Jansson's own work (a hash table per object, a value allocated per
/// member, then the whole tree converted and freed) was over half of the
/// reading thread's time.
///
/// It never decides anything Jansson would decide differently. It answers
/// only for documents it reads completely and finds well formed, giving the
/// value Jansson would give; for everything else (a syntax error, a
/// duplicate key, an integer of more than 18 digits, a double that over- or
/// underflows, invalid UTF-8, a lone surrogate, a NUL in a key, deep
/// nesting) it answers nil, and Jansson reads the bytes again: its result,
/// and its error with line and column, are what the caller gets.
/// `JSONQuickParsingTests` holds the two to the same answers.
struct QuickJSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Nesting this reader takes on itself; deeper documents go to Jansson.
    static let deepestNesting = 64
    /// 18 decimal digits always fit in an Int64; longer integers go to
    /// Jansson, which knows where the range ends.
    static let longestInteger = 18

    /// The value `bytes` hold, or nil when Jansson is to judge them.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSON? {
        var parser = QuickJSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == bytes.count ? value : nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Private

    private mutating func value(depth: Int) -> JSON? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return depth < QuickJSONParser.deepestNesting ? object(depth: depth + 1) : nil
        case UInt8(ascii: "["): return depth < QuickJSONParser.deepestNesting ? array(depth: depth + 1) : nil
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return integer()
        }
    }

    private mutating func object(depth: Int) -> JSON? {
        index += 1  // {
        var members: [(String, JSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        // Keys already read, once there are too many to compare one by one.
        var keys: Set<String>?
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string(),
                  !key.utf8.contains(0) else { return nil }
            if keys == nil, members.count >= 16 { keys = Set(members.map(\.0)) }
            if keys != nil {
                guard keys!.insert(key).inserted else { return nil }
            } else if members.contains(where: { $0.0 == key }) {
                return nil
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let member = value(depth: depth) else { return nil }
            members.append((key, member))
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { return .object(members) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func array(depth: Int) -> JSON? {
        index += 1  // [
        var items: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            guard let item = value(depth: depth) else { return nil }
            items.append(item)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return .array(items) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    /// A string at `index` (its opening quote). Runs of plain bytes are
    /// taken whole; escapes are decoded into a copy.
    private mutating func string() -> String? {
        index += 1  // "
        var runStart = index
        var isASCII = true
        var decoded: [UInt8]?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard var copy = decoded else { return QuickJSONParser.text(run, isASCII: isASCII) }
                copy.append(contentsOf: run)
                return copy.withUnsafeBufferPointer { QuickJSONParser.text($0, isASCII: isASCII) }
            }
            if byte == UInt8(ascii: "\\") {
                if decoded == nil { decoded = [] }
                decoded!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                guard escape(into: &decoded!) else { return nil }
                runStart = index
                continue
            }
            // A raw control character is Jansson's error to report.
            guard byte >= 0x20 else { return nil }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        return nil
    }

    /// Text from UTF-8 that must be valid: Jansson refuses invalid bytes,
    /// where `String(decoding:)` would repair them.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// The escape at `index` (its backslash), appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            guard var scalar = hexUnit() else { return false }
            if (0xDC00...0xDFFF).contains(scalar) { return false }
            if (0xD800...0xDBFF).contains(scalar) {
                // Only a high surrogate followed by a low one is a character.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return false }
                index += 2
                guard let low = hexUnit(), (0xDC00...0xDFFF).contains(low) else { return false }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else { return false }
            text.append(contentsOf: UTF8.encode(character)!)
        default:
            return false
        }
        return true
    }

    /// The four hex digits at `index` of a `\u` escape.
    private mutating func hexUnit() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
            index += 1
        }
        return unit
    }

    /// A number: an optional minus, then 0 or digits not starting with 0;
    /// with a fraction or an exponent it is a double, else an integer.
    /// Doubles are read as Jansson reads them (strtod in the C locale, which
    /// Swift's `Double(_:)` is too); one that comes out infinite, zero or
    /// subnormal, where over- and underflow begin, is left to Jansson.
    private mutating func integer() -> JSON? {
        let start = index
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        let digitsStart = index
        var magnitude: Int64 = 0
        while index < bytes.count, isDigit(bytes[index]) {
            guard index - digitsStart < QuickJSONParser.longestInteger else { return nil }
            magnitude = magnitude * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        var isDouble = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() else { return nil }
            isDouble = true
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return nil }
            isDouble = true
        }
        guard endsValue() else { return nil }
        guard isDouble else { return .int(isNegative ? -magnitude : magnitude) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isNormal else { return nil }
        return .double(number)
    }

    /// Moves past one digit or more; false when there is none.
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func literal(_ word: StaticString, _ value: JSON) -> JSON? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return endsValue() ? value : nil
    }

    /// Whether what follows a number or a word can end it (Jansson reads
    /// `truex` or `1x` as another token, an error).
    private func endsValue() -> Bool {
        guard index < bytes.count else { return true }
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: return true
        default: return false
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
