/// Text with some parts marked, such as the places a search query matched.
/// Mark ranges count Unicode scalars (code points) from the start of `text`.
public struct MarkedText: Hashable, Sendable {
    /// The text itself.
    public var text: String
    /// Sorted, not overlapping.
    public var marks: [Range<Int>]

    /// Text with `marks` (scalar offsets, sorted, not overlapping).
    public init(text: String, marks: [Range<Int>]) {
        self.text = text
        self.marks = marks
    }

    /// `text` with every place a word of `query` occurs marked, folded the
    /// way search matches (for marking hits found elsewhere, such as voice
    /// memo titles).
    public static func marking(_ query: SearchQuery, in text: String) -> MarkedText {
        let folded = TextMatcher.folded(text)
        return MarkedText(text: text, marks: TextMatcher.union(query.terms.map { TextMatcher($0).ranges(in: folded) }))
    }

    /// The text with each marked part between `open` and `close`, e.g.
    /// `대한[민국]` for `rendered(open: "[", close: "]")`.
    public func rendered(open: String, close: String) -> String {
        var out = ""
        var markIndex = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if markIndex < marks.count, offset == marks[markIndex].lowerBound { out += open }
            out.unicodeScalars.append(scalar)
            if markIndex < marks.count, offset + 1 == marks[markIndex].upperBound {
                out += close
                markIndex += 1
            }
        }
        return out
    }
}

/// Finds a query in text the way search matched it: case folded, counted in
/// Unicode scalars. Folding here covers at least what SQLite folds, so a hit
/// from either search path is found again for marking.
struct TextMatcher {
    let needle: [UInt32]

    init(_ query: String) {
        needle = TextMatcher.folded(query)
    }

    /// Whether `needle` occurs in `haystack` at all.
    func occurs(in haystack: [UInt32]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == first && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Every place `needle` occurs in `haystack`, without overlaps.
    func ranges(in haystack: [UInt32]) -> [Range<Int>] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var result: [Range<Int>] = []
        var start = 0
        let first = needle[0]
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first && haystack[start..<(start + needle.count)].elementsEqual(needle) {
                result.append(start..<(start + needle.count))
                start += needle.count
            } else {
                start += 1
            }
        }
        return result
    }

    /// Several words' ranges as marks: sorted, overlapping ones joined.
    static func union(_ rangeLists: [[Range<Int>]]) -> [Range<Int>] {
        var joined: [Range<Int>] = []
        for range in rangeLists.joined().sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, range.lowerBound < last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }

    /// The scalars of `text`, each lower-cased when it lower-cases to one scalar.
    static func folded(_ text: String) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            result.append(fold(scalar))
        }
        return result
    }

    static func fold(_ scalar: Unicode.Scalar) -> UInt32 {
        fold(scalar.value)
    }

    /// `fold` of a scalar value; the search tokenizer folds every character
    /// of every indexed text through here, so the common scripts skip the
    /// Unicode property lookup.
    static func fold(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return value >= 0x41 && value <= 0x5A ? value + 0x20 : value }
        // Kana, Hangul jamo, CJK ideographs and Hangul syllables have no case.
        if (0x3040...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value) { return value }
        guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenLowercased else { return value }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first!.value : value
    }
}
