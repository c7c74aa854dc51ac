import MemoCore

/// Several ids in one word, as `todo done 1-3,5` takes them: ids, ranges
/// (`2-6`) and both joined by commas. Every command that takes several ids
/// reads them here, so they all accept and refuse the same words.
public enum IDList {
    /// The most ids one range may name: `1-9999999999` is a typo, not a wish
    /// to finish ten billion to-dos, and would be held in memory whole.
    public static let largestRange: Int64 = 10_000

    /// The ids `word` names, in its order, each within `range`; or a usage
    /// error saying which part is wrong and why.
    public static func ids(in word: String, range: ClosedRange<Int64>) throws -> [Int64] {
        var ids: [Int64] = []
        for part in word.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = number(bounds[0]), let last = bounds.count == 2 ? number(bounds[1]) : first else {
                throw problem(word, en: "'\(part)' is not an id or a range such as 1-3",
                              ko: "'\(part)'은(는) id나 1-3 같은 범위가 아닙니다")
            }
            guard range.contains(first), range.contains(last) else {
                throw problem(word, en: "ids run from \(range.lowerBound) to \(range.upperBound)",
                              ko: "id는 \(range.lowerBound)부터 \(range.upperBound)까지입니다")
            }
            guard first <= last else {
                throw problem(word, en: "the range \(part) runs backwards; write \(last)-\(first)",
                              ko: "범위 \(part)이(가) 거꾸로입니다. \(last)-\(first)로 쓰세요")
            }
            guard last - first < largestRange else {
                throw problem(word, en: "the range \(part) names more than \(largestRange) ids",
                              ko: "범위 \(part)에 id가 \(largestRange)개보다 많습니다")
            }
            ids += Array(first...last)
        }
        return ids
    }

    // MARK: - Private

    /// ASCII digits only (no sign, no spaces), at most 19 of them.
    private static func number(_ text: Substring) -> Int64? {
        guard (1...19).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int64(text)
    }

    private static func problem(_ word: String, en: String, ko: String) -> MemoError {
        MemoError(.usage, en: "invalid ID '\(word)': \(en)", ko: "ID '\(word)'이(가) 올바르지 않습니다: \(ko)")
    }
}

/// One or more words of ids (`3 4`, `1-3,5`), read through `IDList`; the
/// ids of all the words, in order, each once.
public struct IDArguments: PositionalDeclaration {
    public let positional: Positional

    /// Ids within `range` (positive rowids for memoapp's items).
    public init(_ name: String = "ID", range: ClosedRange<Int64>, help: Localized) {
        positional = Positional(name: name, kind: .text, arity: .variadic(minimum: 1), help: help,
                                decode: { try IDList.ids(in: $0, range: range) })
    }
}
