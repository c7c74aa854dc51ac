/// Columns text takes on a terminal, as wcwidth(3) counts them in a UTF-8
/// locale: the one place memoapp measures text, so that help, tables, the
/// timer list and the pager line up Korean text the same way.
public enum DisplayWidth {
    /// Columns a text takes on a terminal: Hangul and other East Asian wide
    /// characters take two, combining marks and format characters none.
    public static func of(_ text: String) -> Int {
        // ASCII is by far the most common case and is one column a byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// Columns one user-perceived character takes: the sum of its scalars, at
    /// most two (an emoji sequence joined by ZWJ is drawn as one wide glyph).
    public static func of(_ character: Character) -> Int {
        min(2, character.unicodeScalars.reduce(0) { $0 + of($1) })
    }

    /// Columns one scalar takes, as wcwidth(3) counts them in a UTF-8 locale.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let value = scalar.value
        // Hangul vowels and final consonants that join the initial before them.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        let isWide = (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value)
            || (0x3041...0xA4CF).contains(value) || (0xA960...0xA97F).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value)
            || (0x1F900...0x1F9FF).contains(value) || (0x1FA70...0x1FAFF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
        return isWide ? 2 : 1
    }
}
