import MemoCore

/// The `tags` column of `todos` and `memos`: the tags (already one word each,
/// see `Tags`) joined by single spaces.
enum TagColumn {
    /// The column's form of `tags`.
    static func joined(_ tags: [String]) -> String {
        tags.joined(separator: " ")
    }

    /// The inverse of `joined`.
    static func split(_ column: String) -> [String] {
        // Most items have no tags: skip the split and its allocations.
        column.isEmpty ? [] : column.split(separator: " ").map(String.init)
    }
}
