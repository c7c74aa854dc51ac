/// The one tag rule, shared by to-dos, memos and voice memos: a tag is one
/// word (no spaces or commas), a leading `#` is dropped (`#work` is `work`),
/// and tags that differ only in ASCII case are the same tag, the first
/// spelling kept.
public enum Tags {
    /// The tags cleaned, de-duplicated and in the order given, or a usage error
    /// naming the first bad one.
    public static func normalized(_ tags: [String]) throws -> [String] {
        // Most items have no tag or one: no set of seen ones to make.
        if tags.count < 2 { return try tags.map { try normalized($0) } }
        var result: [String] = []
        var seen = Set<String>()
        for raw in tags {
            let tag = try normalized(raw)
            if seen.insert(tag.lowercased()).inserted { result.append(tag) }
        }
        return result
    }

    /// One tag cleaned, or a usage error.
    public static func normalized(_ raw: String) throws -> String {
        // Almost every tag has nothing to clean or refuse, which its bytes
        // can show without the Unicode property lookup of each Character
        // (a few percent of a million-task import, where every task's tags
        // come through here twice).
        if !raw.isEmpty, !mayHoldWhitespaceNulOrComma(raw.utf8), raw.first != "#" { return raw }
        return try carefullyNormalized(raw)
    }

    /// `normalized` Character by Character, for any tag.
    static func carefullyNormalized(_ raw: String) throws -> String {
        var tag = Substring(raw)
        while let first = tag.first, first.isWhitespace { tag.removeFirst() }
        while let last = tag.last, last.isWhitespace { tag.removeLast() }
        if tag.first == "#" { tag.removeFirst() }
        guard !tag.isEmpty else {
            throw MemoError(.usage, en: "a tag cannot be empty", ko: "태그는 비어 있을 수 없습니다")
        }
        guard !tag.contains(where: { $0.isWhitespace || $0 == "\0" || $0 == "," }) else {
            throw MemoError(.usage, en: "a tag is one word without spaces or commas: '\(raw)'",
                            ko: "태그는 공백이나 쉼표 없는 한 단어입니다: '\(raw)'")
        }
        return String(tag)
    }

    /// False only when `bytes` hold no whitespace scalar, NUL or comma: every
    /// scalar with Unicode's White_Space property is ASCII (tab to carriage
    /// return, space) or starts with the byte C2 (U+0085, U+00A0), E1
    /// (U+1680), E2 (U+2000 to U+205F) or E3 (U+3000), so text without those
    /// bytes (Hangul starts with EA to ED) has none. True may be wrong: the
    /// careful path decides then. `TagsTests` holds this to
    /// `Unicode.Scalar.Properties.isWhitespace` for every scalar.
    static func mayHoldWhitespaceNulOrComma(_ bytes: String.UTF8View) -> Bool {
        bytes.contains { byte in
            switch byte {
            case 0x00, 0x09...0x0D, 0x20, 0x2C, 0xC2, 0xE1, 0xE2, 0xE3: true
            default: false
            }
        }
    }
}
