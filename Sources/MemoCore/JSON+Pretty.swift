extension JSON {
    /// The document over several lines, indented by two spaces per level, for
    /// files people may read or diff (exports). Arrays of plain values (tags,
    /// names) stay on one line; strings and numbers are written as in
    /// `serialized`, so both forms read back to the same values.
    public var prettySerialized: String {
        var out = ""
        writePretty(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// Appends the value as `prettySerialized` writes it when it stands
    /// `indent` spaces in (no leading spaces, no final newline): for
    /// documents written a piece at a time.
    public func writePretty(to out: inout String, indent: Int) {
        switch self {
        case let .array(items) where !items.isEmpty && !items.allSatisfy(\.isScalar):
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                item.writePretty(to: &out, indent: indent + 2)
                out += index + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case let .object(members) where !members.isEmpty:
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSON.writeEscaped(key, to: &out)
                out += ": "
                value.writePretty(to: &out, indent: indent + 2)
                out += index + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default:
            write(to: &out)
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
