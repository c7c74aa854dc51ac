/// The one tag rule, shared by to-dos, memos and voice memos: a tag is one
/// word (no spaces or commas), a leading `#` is dropped (`#work` is `work`),
/// and tags that differ only in ASCII case are the same tag, the first
/// spelling kept.
public enum Tags {
    /// The tags cleaned, de-duplicated and in the order given, or a usage error
    /// naming the first bad one.
    public static func normalized(_ tags: [String]) throws -> [String] {
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
}
