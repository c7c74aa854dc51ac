/// Text for a person at a terminal, kept in two kinds of pieces: words, which
/// may hold anything a user typed or a file carried, and memoapp's own
/// terminal codes (colours, the bell, redrawing a line in place).
///
/// Words reach the terminal only through `TerminalText.visible(_:keepingLineBreaks:)`,
/// which shows every control character in a harmless, visible form, so a
/// title holding `ESC [2J` prints as `␛[2J` instead of clearing the screen.
/// Codes are made only by `TerminalCode` values (through `TextStyle`, the live
/// line, the pager), never from a string, so no text can forge one. A writer
/// that takes `TerminalText` therefore cannot print a raw control character,
/// whatever a new render path forgets.
public struct TerminalText: Equatable, Sendable {
    enum Piece: Equatable, Sendable {
        /// Shown with control characters made visible; line breaks (and tabs) are kept.
        case words(String)
        /// Shown as one line: line breaks are made visible too (titles, names).
        case line(String)
        /// One of memoapp's own codes.
        case code(TerminalCode)
    }

    private(set) var pieces: [Piece] = []

    /// No text.
    public init() {}

    /// `words` as they are, which may span lines (a memo's text, a note).
    public init(_ words: String) {
        if !words.isEmpty { pieces = [.words(words)] }
    }

    /// `text` on one line: a line break in it is shown, not followed.
    public init(line text: String) {
        if !text.isEmpty { pieces = [.line(text)] }
    }

    /// One terminal code.
    public init(_ code: TerminalCode) {
        pieces = [.code(code)]
    }

    public var isEmpty: Bool { pieces.isEmpty }

    /// Room for `count` pieces, for text built up a piece at a time (a row).
    mutating func reserveCapacity(pieces count: Int) {
        pieces.reserveCapacity(count)
    }

    public mutating func append(_ other: TerminalText) {
        pieces += other.pieces
    }

    public static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        var text = lhs
        text.append(rhs)
        return text
    }

    public static func + (lhs: TerminalText, rhs: String) -> TerminalText { lhs + TerminalText(rhs) }
    public static func + (lhs: String, rhs: TerminalText) -> TerminalText { TerminalText(lhs) + rhs }
    public static func += (lhs: inout TerminalText, rhs: TerminalText) { lhs.append(rhs) }
    public static func += (lhs: inout TerminalText, rhs: String) {
        if !rhs.isEmpty { lhs.pieces.append(.words(rhs)) }
    }

    /// What the terminal receives: the words made visible, the codes as they are.
    public var rendered: String { text(withCodes: true) }

    /// The words as shown, without the codes: what takes room on the screen.
    public var plain: String { text(withCodes: false) }

    /// Columns the text takes on a terminal (codes take none), each piece
    /// measured as shown without joining them into one string first.
    public var displayWidth: Int {
        pieces.reduce(0) { width, piece in
            switch piece {
            case let .words(text): return width + TerminalText.displayWidth(TerminalText.visible(text, keepingLineBreaks: true))
            case let .line(text): return width + TerminalText.displayWidth(TerminalText.visible(text, keepingLineBreaks: false))
            case .code: return width
            }
        }
    }

    /// The text without the line breaks it starts or ends with (codes around
    /// them stay), so that parts can be joined with blank lines of their own.
    var trimmingLineBreaks: TerminalText {
        var text = self
        for index in text.pieces.indices {
            if case .code = text.pieces[index] { continue }
            guard case let .words(words) = text.pieces[index] else { break }
            let trimmed = words.drop { $0 == "\n" }
            text.pieces[index] = .words(String(trimmed))
            if !trimmed.isEmpty { break }
        }
        for index in text.pieces.indices.reversed() {
            if case .code = text.pieces[index] { continue }
            guard case let .words(words) = text.pieces[index] else { break }
            var trimmed = Substring(words)
            while trimmed.last == "\n" { trimmed.removeLast() }
            text.pieces[index] = .words(String(trimmed))
            if !trimmed.isEmpty { break }
        }
        text.pieces.removeAll { $0 == .words("") }
        return text
    }

    private func text(withCodes: Bool) -> String {
        var out = ""
        forEachShownPart(withCodes: withCodes) { out += $0 }
        return out
    }

    /// Adds what the terminal receives to `bytes`, without making a string of
    /// its own first: a list adds each row to its output buffer this way,
    /// a copy of bytes where appending strings costs hundreds of instructions.
    func render(into bytes: inout [UInt8]) {
        forEachShownPart(withCodes: true) { part in
            var part = part
            part.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }

    /// Each piece as shown, in order: the words made visible, the codes as
    /// they are (or left out).
    private func forEachShownPart(withCodes: Bool, _ body: (String) -> Void) {
        for piece in pieces {
            switch piece {
            case let .words(text): body(TerminalText.visible(text, keepingLineBreaks: true))
            case let .line(text): body(TerminalText.visible(text, keepingLineBreaks: false))
            case let .code(code): if withCodes { body(code.sequence) }
            }
        }
    }

    /// Whether the text ends with a line break.
    var endsWithLineBreak: Bool {
        if case let .words(last)? = pieces.last { return last.hasSuffix("\n") }
        return false
    }
}

// MARK: - The one rule for control characters

extension TerminalText {
    /// `text` with every character that would act on a terminal instead of
    /// showing shown visibly:
    /// - C0 controls (ESC, BEL, CR, backspace…) as their Unicode control
    ///   pictures, `␛` `␇` `␍` `␈`, and DEL as `␡`; a line break (LF) and a
    ///   tab are kept when `keepingLineBreaks`, else LF shows as `␊`;
    /// - C1 controls (U+0080–U+009F, which some terminals take as ESC
    ///   sequences: U+009B is CSI) as `<U+009B>`;
    /// - the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    ///   U+2066–U+2069), which would reorder the rest of the line, memoapp's
    ///   own words included, as `<U+202E>`.
    /// Everything else (any script, emoji, combining marks) is kept as it is.
    public static func visible(_ text: String, keepingLineBreaks: Bool) -> String {
        guard holdsSomethingToShow(text, keepingLineBreaks: keepingLineBreaks) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsShowing(scalar, keepingLineBreaks: keepingLineBreaks) else {
                out.append(scalar)
                continue
            }
            let value = scalar.value
            if value < 0x20, let picture = Unicode.Scalar(0x2400 + value) {
                out.append(picture)
            } else if value == 0x7F {
                out.append("\u{2421}")
            } else {
                let hex = String(value, radix: 16, uppercase: true)
                out.append(contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
            }
        }
        return String(out)
    }

    /// Whether `text` holds a scalar `visible` replaces. Asked of every cell of
    /// every row a list prints, so it reads the UTF-8 bytes rather than
    /// decoding scalars: each scalar `needsShowing` names has a byte pattern of
    /// its own (C0 and DEL one byte; C1 `C2 80`–`C2 9F`; the bidirectional
    /// controls `E2 80 AA`–`E2 80 AE` and `E2 81 A6`–`E2 81 A9`), and no
    /// other scalar's encoding contains one of those patterns.
    static func holdsSomethingToShow(_ text: String, keepingLineBreaks: Bool) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 {
                    if !(keepingLineBreaks && (byte == 0x0A || byte == 0x09)) { return true }
                } else if byte == 0x7F {
                    return true
                } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    return true
                } else if byte == 0xE2, index + 2 < bytes.count {
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
                        return true
                    }
                }
                index += 1
            }
            return false
        }
        if let found { return found }
        // A string without contiguous UTF-8 (bridged): decode it.
        return text.unicodeScalars.contains { needsShowing($0, keepingLineBreaks: keepingLineBreaks) }
    }

    /// Whether `scalar` is one `visible` replaces.
    static func needsShowing(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

// MARK: - memoapp's own codes

/// The terminal codes memoapp itself sends. They exist only as these values:
/// a `TerminalText` turns them into bytes, and no string becomes one.
public enum TerminalCode: Equatable, Sendable {
    /// Select Graphic Rendition: bold (1), dim (2), red (31)… (ECMA-48 8.3.117).
    case style(TextStyle.Attribute)
    /// Back to plain text.
    case resetStyle
    /// Back to the start of the line, to redraw it in place.
    case carriageReturn
    /// Erase the whole line (EL 2).
    case clearLine
    /// Erase from the cursor to the end of the line (EL 0).
    case clearToEndOfLine
    /// Erase from the cursor to the end of the screen (ED 0).
    case clearToEndOfScreen
    /// Move the cursor up this many rows, at least one (CUU).
    case cursorUp(Int)
    case hideCursor
    case showCursor
    /// Erase the screen and move to its top left corner (ED 2, CUP).
    case clearScreen
    /// The terminal's bell.
    case bell

    var sequence: String {
        switch self {
        case let .style(attribute): return "\u{1B}[\(attribute.rawValue)m"
        case .resetStyle: return "\u{1B}[0m"
        case .carriageReturn: return "\r"
        case .clearLine: return "\u{1B}[2K"
        case .clearToEndOfLine: return "\u{1B}[K"
        case .clearToEndOfScreen: return "\u{1B}[J"
        case let .cursorUp(rows): return "\u{1B}[\(max(1, rows))A"
        case .hideCursor: return "\u{1B}[?25l"
        case .showCursor: return "\u{1B}[?25h"
        case .clearScreen: return "\u{1B}[2J\u{1B}[H"
        case .bell: return "\u{7}"
        }
    }
}

/// ANSI styling that turns itself off when colour is not wanted.
public struct TextStyle: Sendable {
    /// The renditions memoapp uses.
    public enum Attribute: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36", boldYellow = "1;33"
    }

    public let isEnabled: Bool

    public func bold(_ text: TerminalText) -> TerminalText { wrap(text, .bold) }
    public func dim(_ text: TerminalText) -> TerminalText { wrap(text, .dim) }
    public func red(_ text: TerminalText) -> TerminalText { wrap(text, .red) }
    public func green(_ text: TerminalText) -> TerminalText { wrap(text, .green) }
    public func yellow(_ text: TerminalText) -> TerminalText { wrap(text, .yellow) }
    public func cyan(_ text: TerminalText) -> TerminalText { wrap(text, .cyan) }
    /// How search marks a match.
    public func highlight(_ text: TerminalText) -> TerminalText { wrap(text, .boldYellow) }

    public func bold(_ text: String) -> TerminalText { bold(TerminalText(text)) }
    public func dim(_ text: String) -> TerminalText { dim(TerminalText(text)) }
    public func red(_ text: String) -> TerminalText { red(TerminalText(text)) }
    public func green(_ text: String) -> TerminalText { green(TerminalText(text)) }
    public func yellow(_ text: String) -> TerminalText { yellow(TerminalText(text)) }
    public func cyan(_ text: String) -> TerminalText { cyan(TerminalText(text)) }

    private func wrap(_ text: TerminalText, _ attribute: Attribute) -> TerminalText {
        isEnabled ? TerminalText(.style(attribute)) + text + TerminalText(.resetStyle) : text
    }
}

// MARK: - Building text

extension TerminalText: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.text
    }

    /// `"\(id)  \(line: title)  \(style.dim(date))"`: strings go in as words,
    /// `line:` as one line, and styled text keeps its codes.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = TerminalText()

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { text += TerminalText(literal) }
        public mutating func appendInterpolation(_ value: TerminalText) { text += value }
        public mutating func appendInterpolation(_ value: String) { text += TerminalText(value) }
        public mutating func appendInterpolation(line value: String) { text += TerminalText(line: value) }
        public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
            text += TerminalText(value.description)
        }
    }
}

extension DefaultStringInterpolation {
    /// Styled text put inside a plain string would lose its codes, or worse,
    /// pass them on as text: build a `TerminalText` instead.
    @available(*, unavailable, message: "interpolate TerminalText into a TerminalText, not a String")
    public mutating func appendInterpolation(_ value: TerminalText) {}
}

extension Sequence where Element == TerminalText {
    /// The texts one after another, `separator` between them.
    public func joined(separator: TerminalText = TerminalText()) -> TerminalText {
        var out = TerminalText()
        for (index, text) in enumerated() {
            if index > 0 { out += separator }
            out += text
        }
        return out
    }
}
