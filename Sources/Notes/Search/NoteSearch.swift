import MemoCore
import SQLite

/// Full-text search over to-dos and memos (titles, text, notes, tags) that
/// works for Korean as people type it, at any length: `회` and `민국` find
/// `대한민국 회의`, and `회의` and `회의록` both find `주간회의록`. Every query
/// is answered from the indexes `NotesSchema` keeps (see `SearchTokenizer`),
/// so its cost follows the page asked for, not the size of the data home.
///
/// The index finds candidates: each word is looked up by one token of it, one
/// to three characters (see `SearchAnchors`), because FTS5 walks one token's
/// doclist several times faster than it checks a phrase of many. Each
/// candidate row is then checked against the whole words in Swift, with the
/// same folding the index used, so results are exact; the check also gives
/// the hit its tier (`SearchTier`).
///
/// Ranking reads no more than it shows, give or take a bounded window: the
/// newest `rankedWindow` hits (to-dos and memos newest first by id within a
/// kind, the two interleaved by when each item was added) are ordered by
/// tier, title matches first, then tag matches, then the rest, newest first
/// within each; every older hit follows, newest first. The index hands out
/// candidates newest first, so the walk stops once the window and the page
/// are full, however many items match. Only a query with fewer hits than
/// that reads its words' whole doclists (a word that matches nothing ends it
/// at once).
public struct NoteSearch {
    /// A database with `NotesSchema.migrations` applied.
    public let connection: Connection

    /// How many hits a search returns unless told otherwise.
    public static let defaultLimit = 20

    /// How many of the newest hits are ordered by tier before the rest.
    public static let rankedWindow = 100

    /// Search over `connection`.
    public init(connection: Connection) {
        self.connection = connection
    }

    /// The first `limit` items of `kinds` that hold `query` (every one when
    /// `limit` is nil), best first (see the type's description).
    public func search(_ query: SearchQuery, in kinds: Set<ItemKind> = [.todo, .memo],
                       limit: Int? = NoteSearch.defaultLimit) throws -> SearchResults {
        let limit = limit.map { max(1, $0) }
        // The window, and one more than the page to know whether there is more.
        let wanted = limit.map { max(NoteSearch.rankedWindow, $0 + 1) }
        let kinds = ItemKind.allCases.filter(kinds.contains)
        let matchers = query.terms.map(TextMatcher.init)
        let newest = try connection.readTransaction {
            try NoteSearch.newestFirst(kinds.map { kind in
                let expression = try SearchAnchors.anchors(for: query.terms, of: kind, in: connection)
                    .map(SearchPhrase.quoted).joined(separator: query.combination == .all ? " AND " : " OR ")
                return try hits(kind, matching: expression, matchers: matchers, combination: query.combination,
                                limit: wanted)
            })
        }
        let window = newest.prefix(NoteSearch.rankedWindow).enumerated().sorted { a, b in
            (a.element.tier.rawValue, a.offset) < (b.element.tier.rawValue, b.offset)
        }.map(\.element)
        let ranked = window + newest.dropFirst(NoteSearch.rankedWindow)
        let page = ranked.prefix(limit ?? ranked.count).map { makeHit($0, matchers: matchers) }
        return SearchResults(query: query, hits: page, hasMore: limit.map { ranked.count > $0 } ?? false)
    }

    // MARK: - Private

    /// A stored item as search reads it, with the tier its words put it in.
    struct Candidate {
        var kind: ItemKind
        var id: Int64
        var uid: String?
        var title: String?
        var body: String?
        var tags: String
        var flag: Bool
        var createdAt: Double
        var updatedAt: Double
        var tier: SearchTier
    }

    /// The items of `kind` that hold the query, newest (highest id) first, at
    /// most `limit`: the rows `expression` matches, read as the index hands
    /// them out, each kept when its words are really there.
    private func hits(_ kind: ItemKind, matching expression: String, matchers: [TextMatcher],
                      combination: SearchQuery.Combination, limit: Int?) throws -> [Candidate] {
        let (table, body, flag) = kind == .todo
            ? ("todos", "note", "done_at IS NOT NULL") : ("memos", "text", "is_pinned")
        let sql = """
            SELECT t.id, t.uid, t.title, t.\(body), t.tags, \(flag), t.created_at, t.updated_at
            FROM \(table)_search AS hits JOIN \(table) AS t ON t.id = hits.rowid
            WHERE \(table)_search MATCH ?1
            ORDER BY hits.rowid DESC
            """
        var kept: [Candidate] = []
        try connection.forEachRow(sql, arguments: [.text(expression)]) { row in
            let title = row.optionalString(2)
            let body = row.optionalString(3)
            let tags = row.string(4)
            if let tier = SearchTier.of(title: title.map(TextMatcher.folded), body: body.map(TextMatcher.folded),
                                        tags: TextMatcher.folded(tags), matchers: matchers, combination: combination) {
                kept.append(Candidate(kind: kind, id: row.int64(0), uid: row.optionalString(1), title: title,
                                      body: body, tags: tags, flag: row.bool(5), createdAt: row.double(6),
                                      updatedAt: row.double(7), tier: tier))
            }
            return limit.map { kept.count < $0 } ?? true
        }
        return kept
    }

    /// Lists each already newest first by id, merged into one: at each step
    /// the head added last goes next (a tie: to-dos before memos).
    static func newestFirst(_ lists: [[Candidate]]) -> [Candidate] {
        var positions = [Int](repeating: 0, count: lists.count)
        var merged: [Candidate] = []
        merged.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        while true {
            var next: Int?
            for (index, list) in lists.enumerated() where positions[index] < list.count {
                guard let best = next else {
                    next = index
                    continue
                }
                if list[positions[index]].createdAt > lists[best][positions[best]].createdAt { next = index }
            }
            guard let index = next else { return merged }
            merged.append(lists[index][positions[index]])
            positions[index] += 1
        }
    }

    private func makeHit(_ candidate: Candidate, matchers: [TextMatcher]) -> SearchHit {
        let bodyField: SearchField = candidate.kind == .todo ? .note : .text
        let fields: [(SearchField, String?)] = [(.title, candidate.title), (bodyField, candidate.body),
                                                (.tags, candidate.tags)]
        var match: SearchMatch?
        var snippet = MarkedText(text: "", marks: [])
        for (field, value) in fields {
            guard let value, !value.isEmpty else { continue }
            let folded = TextMatcher.folded(value)
            let ranges = TextMatcher.union(matchers.map { $0.ranges(in: folded) })
            guard let first = ranges.first else { continue }
            match = SearchMatch(field: field, start: first.lowerBound, length: first.count)
            snippet = Snippet.make(from: value, scalarCount: folded.count, around: first, marks: ranges)
            break
        }
        return SearchHit(kind: candidate.kind, id: candidate.id, uid: candidate.uid, title: candidate.title,
                         isDone: candidate.kind == .todo && candidate.flag,
                         isPinned: candidate.kind == .memo && candidate.flag,
                         createdAt: Timestamp(secondsSince1970: candidate.createdAt),
                         updatedAt: Timestamp(secondsSince1970: candidate.updatedAt),
                         score: Double(candidate.tier.rawValue), match: match, snippet: snippet)
    }
}

/// One-line excerpts around a match.
enum Snippet {
    /// Scalars kept before the first match.
    static let leading = 20
    /// Scalars an excerpt holds at most, besides the `…` marks.
    static let width = 80

    /// The part of `text` around `focus`, on one line (each line break a
    /// space), with those of `marks` that fit, shifted to the excerpt. Other
    /// control characters stay: a front end shows them by its own rule for
    /// all text, and JSON escapes them.
    static func make(from text: String, scalarCount: Int, around focus: Range<Int>,
                     marks: [Range<Int>]) -> MarkedText {
        var start = max(0, focus.lowerBound - leading)
        var end = min(scalarCount, start + max(width, focus.count))
        if end - start < width { start = max(0, end - width) }
        end = min(scalarCount, max(end, focus.upperBound))
        var excerpt = start > 0 ? "…" : ""
        let shift = start > 0 ? 1 : 0
        for scalar in text.unicodeScalars.dropFirst(start).prefix(end - start) {
            if String(scalar).hasLineBreak {
                excerpt += " "
            } else {
                excerpt.unicodeScalars.append(scalar)
            }
        }
        if end < scalarCount { excerpt += "…" }
        let kept = marks.filter { $0.lowerBound >= start && $0.upperBound <= end }
            .map { ($0.lowerBound - start + shift)..<($0.upperBound - start + shift) }
        return MarkedText(text: excerpt, marks: kept)
    }
}


