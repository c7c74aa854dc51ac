/// A three-way merge of texts by lines, as sync merges a memo's text that
/// two devices changed: `base` is the text both last agreed on, `ours` the
/// hub's text now, `theirs` the device's. Changes to different lines are
/// both kept; where both changed the same lines differently the merge
/// fails and the caller keeps both texts (the memo and a conflict copy):
/// text is never overwritten silently.
///
/// Lines are matched by a longest common subsequence against the base
/// (dynamic programming after the common head and tail are set aside),
/// then walked as diff3 does: runs of base lines that both sides kept are
/// stable, and each stretch between them changed on one side (take it), on
/// both the same way (take it once), or on both differently (a conflict).
public enum TextMerge {
    public enum Outcome: Equatable, Sendable {
        case merged(String)
        case conflict
    }

    /// The most cells of the matching table (lines × lines after the
    /// common head and tail): 16 MB at most. Texts whose changed middles
    /// are larger than that are not merged line by line: a conflict,
    /// which keeps both, rather than a slow merge.
    static let maximumCells = 4_000_000

    public static func merge(base: String, ours: String, theirs: String) -> Outcome {
        if ours == theirs || base == theirs { return .merged(ours) }
        if base == ours { return .merged(theirs) }
        let baseLines = lines(base), ourLines = lines(ours), theirLines = lines(theirs)
        guard let toOurs = matches(baseLines, ourLines), let toTheirs = matches(baseLines, theirLines) else {
            return .conflict
        }
        var merged: [Substring] = []
        var i = 0, a = 0, b = 0
        let n = baseLines.count
        while i < n || a < ourLines.count || b < theirLines.count {
            // A stable run: base lines that both sides kept where they are.
            var run = 0
            while i + run < n, toOurs[i + run] == a + run, toTheirs[i + run] == b + run { run += 1 }
            if run > 0 {
                merged += baseLines[i..<(i + run)]
                i += run; a += run; b += run
                continue
            }
            // The stretch up to the next base line both sides kept.
            var next = i
            while next < n, toOurs[next] == nil || toTheirs[next] == nil { next += 1 }
            let nextA = next < n ? toOurs[next]! : ourLines.count
            let nextB = next < n ? toTheirs[next]! : theirLines.count
            let baseChunk = baseLines[i..<next], ourChunk = ourLines[a..<nextA], theirChunk = theirLines[b..<nextB]
            if ourChunk.elementsEqual(baseChunk) {
                merged += theirChunk
            } else if theirChunk.elementsEqual(baseChunk) || ourChunk.elementsEqual(theirChunk) {
                merged += ourChunk
            } else {
                return .conflict
            }
            i = next; a = nextA; b = nextB
        }
        return .merged(merged.joined())
    }

    /// The text's lines, each with its line break (the last may have none),
    /// so that joining them gives the text back byte for byte.
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == "\n" || text[index] == "\r\n" {
                lines.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }

    /// For each line of `base`, the index of the line of `other` it is
    /// matched with in a longest common subsequence, or nil; nil for the
    /// whole when the table would be too large.
    static func matches(_ base: [Substring], _ other: [Substring]) -> [Int?]? {
        var result = [Int?](repeating: nil, count: base.count)
        var head = 0
        while head < base.count, head < other.count, base[head] == other[head] {
            result[head] = head
            head += 1
        }
        var tail = 0
        while tail < base.count - head, tail < other.count - head,
              base[base.count - 1 - tail] == other[other.count - 1 - tail] {
            result[base.count - 1 - tail] = other.count - 1 - tail
            tail += 1
        }
        let rows = base.count - head - tail, columns = other.count - head - tail
        guard rows > 0, columns > 0 else { return result }
        guard rows * columns <= maximumCells else { return nil }
        // lengths[r][c]: the LCS length of base[head+r...] and other[head+c...].
        let width = columns + 1
        var lengths = [Int32](repeating: 0, count: (rows + 1) * width)
        for r in stride(from: rows - 1, through: 0, by: -1) {
            for c in stride(from: columns - 1, through: 0, by: -1) {
                lengths[r * width + c] = base[head + r] == other[head + c]
                    ? lengths[(r + 1) * width + c + 1] + 1
                    : max(lengths[(r + 1) * width + c], lengths[r * width + c + 1])
            }
        }
        var r = 0, c = 0
        while r < rows, c < columns {
            if base[head + r] == other[head + c] {
                result[head + r] = head + c
                r += 1; c += 1
            } else if lengths[(r + 1) * width + c] >= lengths[r * width + c + 1] {
                r += 1
            } else {
                c += 1
            }
        }
        return result
    }
}
