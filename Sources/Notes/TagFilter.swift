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

    /// The most tags one filter takes: each required tag is one more
    /// subquery of a list, and a list with hundreds of them (one request of
    /// 300 `tag=-x` took seconds) is no list anyone means.
    public static let largestCount = 32

    /// Reads `work`, `#work` (required) and `-work` (excluded), each cleaned
    /// by `Tags.normalized`; a bad tag, or more than `largestCount`, is a
    /// usage error.
    public init(parsing words: [String]) throws {
        self.init()
        guard words.count <= TagFilter.largestCount else {
            throw MemoError(.usage, en: "a list takes at most \(TagFilter.largestCount) tags to filter by (\(words.count) given)",
                            ko: "목록은 태그를 \(TagFilter.largestCount)개까지만 걸러 낼 수 있습니다 (\(words.count)개를 줌)")
        }
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
    /// `todo_id`), whose `tag` column compares without case, and their values:
    /// one subquery per required tag (each must hold), and one for all the
    /// excluded ones together (none may), so that excluding more tags costs
    /// one set of ids, not one each.
    func conditions(table: String, key: String) -> (conditions: [String], arguments: [SQLiteValue]) {
        var conditions = required.map { _ in "id IN (SELECT \(key) FROM \(table) WHERE tag = ?)" }
        if !excluded.isEmpty {
            let places = Array(repeating: "?", count: excluded.count).joined(separator: ", ")
            conditions.append("id NOT IN (SELECT \(key) FROM \(table) WHERE tag IN (\(places)))")
        }
        return (conditions, (required + excluded).map { .text($0) })
    }
}
