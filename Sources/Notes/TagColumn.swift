import MemoCore

/// The `tags` column of `todos` and `memos`: the tags (already one word each,
/// see `Tags`) joined by single spaces.
public enum TagColumn {
    /// The column's form of `tags`.
    public static func joined(_ tags: [String]) -> String {
        tags.joined(separator: " ")
    }

    /// The inverse of `joined`.
    public static func split(_ column: String) -> [String] {
        // Most items have no tags: skip the split and its allocations.
        if column.isEmpty { return [] }
        // Split at the space bytes: a split by Characters walked grapheme
        // clusters, a tenth of reading a list's rows under perf, and would not
        // split before a tag that starts with a combining mark (the space
        // and the mark are one Character).
        var tags: [String] = []
        let bytes = column.utf8
        var start = bytes.startIndex
        while let space = bytes[start...].firstIndex(of: UInt8(ascii: " ")) {
            if space != start { tags.append(String(column[start..<space])) }
            start = bytes.index(after: space)
        }
        if start != bytes.endIndex { tags.append(String(column[start...])) }
        return tags
    }
}
