/// How a query names a token for FTS5: a phrase
/// (https://www.sqlite.org/fts5.html#fts5_strings) of one to three characters,
/// `"` doubled, and the two characters the query syntax cannot carry written
/// as escapes the tokenizer reads back (`SearchTextReader.nextQueryCharacter`):
/// NUL (FTS5 reads a query as a C string, which would end there) and the
/// escape character itself.
enum SearchPhrase {
    /// Starts an escape in a query phrase.
    static let escape: Unicode.Scalar = "\u{4}"

    /// The FTS5 string that stands for `text`.
    static func quoted(_ text: String) -> String {
        var phrase = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": phrase += "\"\""
            case "\0": phrase.unicodeScalars.append(contentsOf: [escape, "0"])
            case escape: phrase.unicodeScalars.append(contentsOf: [escape, escape])
            default: phrase.unicodeScalars.append(scalar)
            }
        }
        return phrase + "\""
    }
}

/// Reads the characters of a text handed to the tokenizer: UTF-8 decoded the
/// way Swift decodes it (each ill-formed part becomes one U+FFFD, so the index
/// agrees with what search reads back from the row), case folded as
/// `TextMatcher` folds, each with its byte range in the text.
struct SearchTextReader {
    struct Character {
        var value: UInt32
        var start: Int
        var end: Int
        /// Whether the text's bytes `start..<end` are `value` in the UTF-8
        /// the tokenizer writes: well formed, not NUL (written `C0 80`),
        /// not changed by folding or an escape. A token of such characters
        /// is handed to FTS5 straight from the text, not encoded again.
        var isVerbatim = true
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next character of a document, folded.
    mutating func nextCharacter() -> Character? {
        guard var character = nextScalar() else { return nil }
        let folded = TextMatcher.fold(character.value)
        if folded != character.value {
            character.value = folded
            character.isVerbatim = false
        }
        return character
    }

    /// The next character of a query phrase, folded, with the escapes of
    /// `SearchPhrase.quoted(_:)` read back.
    mutating func nextQueryCharacter() -> Character? {
        guard var character = nextScalar() else { return nil }
        if character.value == SearchPhrase.escape.value {
            let start = offset
            if let escaped = nextScalar(), escaped.value == 0x30 || escaped.value == SearchPhrase.escape.value {
                character.value = escaped.value == 0x30 ? 0 : escaped.value
                character.end = escaped.end
                character.isVerbatim = false
            } else {
                offset = start
            }
        }
        let folded = TextMatcher.fold(character.value)
        if folded != character.value {
            character.value = folded
            character.isVerbatim = false
        }
        return character
    }

    /// The next Unicode scalar, U+FFFD for each maximal ill-formed subsequence
    /// (Unicode's recommended practice, which Swift's decoding follows).
    private mutating func nextScalar() -> Character? {
        guard offset < bytes.count else { return nil }
        let start = offset
        let lead = bytes[offset]
        offset += 1
        if lead < 0x80 { return Character(value: UInt32(lead), start: start, end: offset, isVerbatim: lead != 0) }
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F
        default: return Character(value: 0xFFFD, start: start, end: offset, isVerbatim: false)
        }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for index in 1..<length {
            // Only the first continuation byte has a narrower range.
            let range = index == 1 ? lowest...highest : 0x80...0xBF
            guard offset < bytes.count, range.contains(bytes[offset]) else {
                return Character(value: 0xFFFD, start: start, end: offset, isVerbatim: false)
            }
            value = value << 6 | UInt32(bytes[offset] & 0x3F)
            offset += 1
        }
        return Character(value: value, start: start, end: offset)
    }
}
