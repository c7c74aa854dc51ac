import MemoCore
import SQLite

/// Which tags a list keeps: `--tag work --tag -done` keeps items tagged
/// `work` and not `done`. Every tag given must be there (repeated tags narrow
/// the list, as Taskwarrior's `+a +b` does), and no excluded one.
public struct TagFilter: Sendable, Equatable {
    /// Tags every listed item has (any case).
    public var required: [String]
    /// Tags no listed item has (any case).
    public var excluded: [String]

    /// A filter; the empty one keeps everything.
    public init(required: [String] = [], excluded: [String] = []) {
        self.required = required
        self.excluded = excluded
    }

    /// Reads `work`, `#work` (required) and `-work` (excluded), each cleaned
    /// by `Tags.normalized`; a bad tag is a usage error.
    public init(parsing words: [String]) throws {
        self.init()
        for word in words {
            if word.hasPrefix("-") {
                excluded.append(try Tags.normalized(String(word.dropFirst())))
            } else {
                required.append(try Tags.normalized(word))
            }
        }
    }

    /// One word of `init(parsing:)` checked alone, as typed.
    public static func checked(_ word: String) throws -> String {
        _ = try TagFilter(parsing: [word])
        return word
    }

    /// Whether the filter keeps every item.
    public var isEmpty: Bool { required.isEmpty && excluded.isEmpty }

    /// SQL conditions on `id` through a tag table (`todo_tags` keyed by
    /// `todo_id`), whose `tag` column compares without case, and their values.
    func conditions(table: String, key: String) -> (conditions: [String], arguments: [SQLiteValue]) {
        let subquery = "(SELECT \(key) FROM \(table) WHERE tag = ?)"
        return (required.map { _ in "id IN " + subquery } + excluded.map { _ in "id NOT IN " + subquery },
                (required + excluded).map { .text($0) })
    }
}
