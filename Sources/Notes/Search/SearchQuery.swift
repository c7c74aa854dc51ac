import MemoCore

/// A search as the user typed it: the words (or quoted phrases) to find, and
/// whether an item must hold all of them or any one.
///
/// The syntax, and all of it:
/// - White space separates words. Each word is found as a substring, case
///   folded, anywhere in the title, the text or note, or the tags: `민국`
///   finds `대한민국`, `REP` finds `report`. An item holds every word (in any
///   order, in any of its fields), or with `.any` at least one.
/// - Double quotes make a phrase: `"weekly report"` is found only as written,
///   its space included. Quotes may sit inside a word (`say"s  o"` is the one
///   phrase `says  o`), as in a shell.
/// - A backslash makes the next `"` or `\` plain text: `\"` finds a quote
///   character, `\\` a backslash. A backslash before anything else is itself,
///   and so is a quote that has no partner: `5"` finds `5"`.
/// - Nothing else is syntax: `*`, `-`, `AND`, `OR`, `NEAR`, parentheses and
///   colons are searched for as written.
public struct SearchQuery: Hashable, Sendable {
    /// How the words of a query combine.
    public enum Combination: String, Sendable {
        /// An item must hold every word.
        case all
        /// An item must hold at least one word.
        case any
    }

    /// The longest query, in characters: it keeps a word's phrase, and the
    /// LIKE pattern voice memo titles are searched with, well under SQLite's
    /// limits (a LIKE pattern over 50,000 bytes is "too complex",
    /// https://www.sqlite.org/limits.html): at most 4 bytes a character, or
    /// 2 for an escaped `%`, `_` or `\`, this keeps every pattern under 40,003.
    public static let maximumLength = 10_000

    /// The query as typed, white space at either end removed.
    public let text: String
    /// The words and phrases to find, in the order typed, each once.
    public let terms: [String]
    /// All of them, or any one.
    public let combination: Combination

    /// A query from user input, or a usage error when there is nothing to find.
    public init(_ raw: String, combination: Combination = .all) throws {
        var text = Substring(raw)
        while let first = text.unicodeScalars.first, first.properties.isWhitespace { text.unicodeScalars.removeFirst() }
        while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() }
        let length = text.count
        guard length <= SearchQuery.maximumLength else {
            throw MemoError(.usage,
                            en: "the search query is too long (\(length) characters; at most \(SearchQuery.maximumLength))",
                            ko: "검색어가 너무 깁니다 (\(length)자, 최대 \(SearchQuery.maximumLength)자)")
        }
        let terms = SearchQuery.terms(in: text)
        guard !terms.isEmpty else {
            throw MemoError(.usage, en: "the search query is empty", ko: "검색어가 비어 있습니다")
        }
        self.text = String(text)
        self.terms = terms
        self.combination = combination
    }

    /// Whether an item with these fields (title, text or note, tags; nil for
    /// an absent one) holds the query, as search decides it: for marking hits
    /// found elsewhere, such as voice memo titles.
    public func isMatched(by fields: [String?]) -> Bool {
        let folded = fields.compactMap { $0.map(TextMatcher.folded) }
        let isFound = { (term: String) in
            let matcher = TextMatcher(term)
            return folded.contains { !matcher.ranges(in: $0).isEmpty }
        }
        return combination == .all ? terms.allSatisfy(isFound) : terms.contains(where: isFound)
    }

    // MARK: - Private

    /// The words and phrases of `text` (see the type's description).
    static func terms(in text: Substring) -> [String] {
        enum Piece: Equatable {
            case character(Unicode.Scalar)
            case quote
        }
        var pieces: [Piece] = []
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\\", let next = pending, next == "\"" || next == "\\" {
                pieces.append(.character(next))
                pending = scalars.next()
            } else {
                pieces.append(scalar == "\"" ? .quote : .character(scalar))
            }
        }
        // A quote without a partner is text.
        if pieces.filter({ $0 == .quote }).count % 2 == 1, let last = pieces.lastIndex(of: .quote) {
            pieces[last] = .character("\"")
        }
        var terms: [String] = []
        var word = ""
        var isQuoted = false
        func finishWord() {
            if !word.isEmpty, !terms.contains(word) { terms.append(word) }
            word = ""
        }
        for piece in pieces {
            switch piece {
            case .quote:
                isQuoted.toggle()
            case let .character(scalar) where scalar.properties.isWhitespace && !isQuoted:
                finishWord()
            case let .character(scalar):
                word.unicodeScalars.append(scalar)
            }
        }
        finishWord()
        return terms
    }
}
