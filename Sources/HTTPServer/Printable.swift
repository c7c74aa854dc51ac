/// `text` safe to print inside a message: control characters (C0, DEL, C1)
/// become U+FFFD, so a hostile value cannot move a terminal's cursor, and
/// text beyond `limit` characters is cut with an ellipsis.
func printable(_ text: String, limit: Int) -> String {
    var scalars = String.UnicodeScalarView()
    for (count, scalar) in text.unicodeScalars.enumerated() {
        if count == limit {
            scalars.append("…")
            break
        }
        scalars.append(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "\u{FFFD}" : scalar)
    }
    return String(scalars)
}
