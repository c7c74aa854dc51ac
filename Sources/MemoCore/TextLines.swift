/// What "one line" means for the texts that are shown on one: titles, labels,
/// names. A front end shows a line break inside one as a visible mark, but a
/// title that holds one is refused on the way in, so lists stay a line an item.
extension String {
    /// Whether the text holds a line break: LF, CR, VT, FF, NEL (U+0085), or
    /// the line and paragraph separators U+2028 and U+2029.
    public var hasLineBreak: Bool {
        unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
    }
}
