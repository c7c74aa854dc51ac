import MemoCore

/// A search as the user typed it, and how it will be run.
///
/// The query is text to find, never syntax: quotes, `*`, `-`, `NEAR`, `AND`,
/// `OR`, parentheses and colons are searched for as written. White space at
/// either end is dropped; inside it counts.
///
/// Two paths, because the trigram tokenizer indexes runs of three characters
/// and so cannot answer a query shorter than that:
/// - `trigram`: three or more characters (Unicode scalars, not bytes: `회의록`
///   is three) go to FTS5 `MATCH` as one quoted string, which trigram turns
///   into a substring match; case folded for every script SQLite folds.
/// - `exact`: one or two characters (and any query holding a NUL, which FTS5
///   would cut short) scan the tables with `instr` or `LIKE`, folding ASCII
///   case only (as SQLite does without ICU).
public struct SearchQuery: Hashable, Sendable {
    /// How a query is run.
    public enum Path: String, Sendable {
        case trigram
        case exact
    }

    /// The longest query, in characters. SQLite refuses a LIKE pattern over
    /// 50,000 bytes ("pattern too complex", https://www.sqlite.org/limits.html),
    /// which a long query reached on the exact path and in voice titles. At
    /// most 4 bytes a character, or 2 for an escaped `%`, `_` or `\`, this
    /// bound keeps every pattern under 40,003 bytes.
    public static let maximumLength = 10_000

    /// The query with surrounding white space removed.
    public let text: String
    /// Which way the query is run.
    public let path: Path

    /// A query from user input, or a usage error when there is nothing to find.
    public init(_ raw: String) throws {
        var text = Substring(raw)
        while let first = text.unicodeScalars.first, first.properties.isWhitespace { text.unicodeScalars.removeFirst() }
        while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() }
        guard !text.isEmpty else {
            throw MemoError(.usage, en: "the search query is empty", ko: "검색어가 비어 있습니다")
        }
        let length = text.count
        guard length <= SearchQuery.maximumLength else {
            throw MemoError(.usage,
                            en: "the search query is too long (\(length) characters; at most \(SearchQuery.maximumLength))",
                            ko: "검색어가 너무 깁니다 (\(length)자, 최대 \(SearchQuery.maximumLength)자)")
        }
        self.text = String(text)
        let isLongEnough = text.unicodeScalars.count >= 3
        path = isLongEnough && !text.unicodeScalars.contains("\0") ? .trigram : .exact
    }

    /// The FTS5 expression: the whole query as one string, `"` doubled, so that
    /// nothing in it is read as an operator
    /// (https://www.sqlite.org/fts5.html#fts5_strings).
    var matchExpression: String {
        var expression = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { expression += "\"\"" } else { expression.unicodeScalars.append(scalar) }
        }
        return expression + "\""
    }

    /// The needle of the exact path, lower-cased as SQLite's `lower()` does
    /// (ASCII letters only), so that `instr(lower(column), needle)` folds case.
    var exactNeedle: String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// `%query%` for `LIKE … ESCAPE '\'`, with `%`, `_` and `\` escaped so that
    /// they match themselves.
    var likePattern: String {
        var pattern = "%"
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { pattern += "\\" }
            pattern.unicodeScalars.append(scalar)
        }
        return pattern + "%"
    }
}
