import MemoCore
import SQLite

/// Full-text search over to-dos and memos (titles, text, notes, tags) that
/// works for Korean as people type it: `민국` finds `대한민국`, and `회의` and
/// `회의록` both find `주간회의록`. See `SearchQuery` for the two paths.
public struct NoteSearch {
    /// A database with `NotesSchema.migrations` applied.
    public let connection: Connection

    /// How many hits a search returns unless told otherwise.
    public static let defaultLimit = 20

    /// Search over `connection`.
    public init(connection: Connection) {
        self.connection = connection
    }

    /// The best `limit` items of `kinds` that contain `query`, best first.
    /// When both kinds are searched their scores are merged as they are; bm25
    /// values of two tables are close enough in scale to interleave sensibly.
    public func search(_ query: SearchQuery, in kinds: Set<ItemKind> = [.todo, .memo],
                       limit: Int = NoteSearch.defaultLimit) throws -> SearchResults {
        let limit = max(1, limit)
        let hits = try connection.readTransaction {
            try ItemKind.allCases.filter(kinds.contains).flatMap { kind in
                try rows(kind, query, limit: limit + 1).map { makeHit($0, kind: kind, query: query) }
            }
        }
        let ordered = hits.sorted { a, b in
            if a.score != b.score { return a.score < b.score }
            if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
            if a.kind != b.kind { return a.kind == .todo }
            return a.id > b.id
        }
        return SearchResults(query: query, hits: Array(ordered.prefix(limit)), hasMore: ordered.count > limit)
    }

    // MARK: - Private

    /// A stored item as search reads it.
    private struct Candidate {
        var id: Int64
        var uid: String?
        var title: String?
        var body: String?
        var tags: String
        var flag: Bool
        var updatedAt: Double
        var score: Double
    }

    private func rows(_ kind: ItemKind, _ query: SearchQuery, limit: Int) throws -> [Candidate] {
        let (table, body, flag) = kind == .todo
            ? ("todos", "note", "done_at IS NOT NULL") : ("memos", "text", "is_pinned")
        let sql: String
        let arguments: [SQLiteValue]
        switch query.path {
        case .trigram:
            // Rank and cut inside FTS first, then read only the rows kept: long
            // texts of hits beyond the limit are never loaded. The tokenizer
            // stops at a NUL character, so the few rows holding one (found by
            // a partial index) are also scanned exactly, ranked after the rest.
            let exactly = ["title", body, "tags"].map { "instr(lower(\($0)), ?3)" }.joined(separator: " OR ")
            sql = """
                SELECT t.id, t.title, t.\(body), t.tags, \(flag), t.updated_at, hits.score, t.uid
                FROM (SELECT rowid AS id, bm25(\(table)_fts, 10.0, 1.0, 5.0) AS score FROM \(table)_fts
                      WHERE \(table)_fts MATCH ?1
                      UNION ALL
                      SELECT id, 0.0 FROM \(table) WHERE has_nul AND (\(exactly))
                          AND id NOT IN (SELECT rowid FROM \(table)_fts WHERE \(table)_fts MATCH ?1)
                      ORDER BY score LIMIT ?2) AS hits
                JOIN \(table) AS t ON t.id = hits.id
                ORDER BY hits.score, t.updated_at DESC, t.id DESC
                """
            arguments = [.text(query.matchExpression), .integer(Int64(limit)), .text(query.exactNeedle)]
        case .exact:
            // A scan of every row, so it must be lean: a needle without ASCII
            // letters has no case to fold and is found by `instr` on the raw
            // bytes; one with letters uses `LIKE`, which folds ASCII case as it
            // goes without copying the text (https://www.sqlite.org/lang_expr.html#like).
            // LIKE stops at a NUL character, so rows holding one also get the
            // exact, slower `instr(lower(...))`.
            // A needle holding a NUL would cut the LIKE pattern short: it takes
            // the slow path on every row.
            let needsFolding = query.exactNeedle.utf8.contains { $0 >= 0x61 && $0 <= 0x7A }
            let usesLike = needsFolding && !query.text.utf8.contains(0)
            func contains(_ column: String) -> String {
                if usesLike { return "(\(column) LIKE ?3 ESCAPE '\\' OR (has_nul AND instr(lower(\(column)), ?1)))" }
                return needsFolding ? "instr(lower(\(column)), ?1)" : "instr(\(column), ?1)"
            }
            let inTitle = contains("title")
            let inTags = usesLike ? "tags LIKE ?3 ESCAPE '\\'" : needsFolding ? "instr(lower(tags), ?1)" : "instr(tags, ?1)"
            let inBody = contains(body)
            sql = """
                SELECT t.id, t.title, t.\(body), t.tags, \(flag), t.updated_at, hits.score, t.uid
                FROM (SELECT id, CASE WHEN \(inTitle) THEN 0 WHEN \(inTags) THEN 1 ELSE 2 END AS score
                      FROM \(table) WHERE \(inTitle) OR \(inTags) OR \(inBody)
                      ORDER BY score, updated_at DESC, id DESC LIMIT ?2) AS hits
                JOIN \(table) AS t ON t.id = hits.id
                ORDER BY hits.score, t.updated_at DESC, t.id DESC
                """
            arguments = [.text(query.exactNeedle), .integer(Int64(limit))]
                + (usesLike ? [.text(query.likePattern)] : [])
        }
        return try connection.query(sql, arguments: arguments) { row in
            Candidate(id: row.int64(0), uid: row.optionalString(7), title: row.optionalString(1),
                      body: row.optionalString(2), tags: row.string(3), flag: row.bool(4),
                      updatedAt: row.double(5), score: row.double(6))
        }
    }

    private func makeHit(_ candidate: Candidate, kind: ItemKind, query: SearchQuery) -> SearchHit {
        let matcher = TextMatcher(query.text)
        let bodyField: SearchField = kind == .todo ? .note : .text
        let fields: [(SearchField, String?)] = [(.title, candidate.title), (bodyField, candidate.body),
                                                (.tags, candidate.tags)]
        var match: SearchMatch?
        var snippet = MarkedText(text: "", marks: [])
        for (field, value) in fields {
            guard let value, !value.isEmpty else { continue }
            let folded = TextMatcher.folded(value)
            let ranges = matcher.ranges(in: folded)
            guard let first = ranges.first else { continue }
            match = SearchMatch(field: field, start: first.lowerBound, length: first.count)
            snippet = Snippet.make(from: value, scalarCount: folded.count, around: first, marks: ranges)
            break
        }
        if match == nil {
            // Found by SQLite but not by our folding (a case SQLite folds
            // differently): show the start of the item, unmarked.
            let text = candidate.title ?? candidate.body ?? candidate.tags
            snippet = Snippet.make(from: text, scalarCount: text.unicodeScalars.count, around: 0..<0, marks: [])
        }
        return SearchHit(kind: kind, id: candidate.id, uid: candidate.uid, title: candidate.title,
                         isDone: kind == .todo && candidate.flag, isPinned: kind == .memo && candidate.flag,
                         updatedAt: Timestamp(secondsSince1970: candidate.updatedAt), score: candidate.score,
                         match: match, snippet: snippet)
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
