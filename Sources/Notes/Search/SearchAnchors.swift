import SQLite

/// Which token of a word search looks it up by. A word of up to three
/// characters is its own token. A longer one is looked up by one of its runs
/// of three neighbouring characters, the one the index holds least often in
/// that kind's table: `meeting` by `eti` rather than `ing`. A rarer token means
/// fewer candidate rows to read and check, and a shorter walk when two words
/// seldom meet. Every probe is an FTS5 query, so few are made: one per run
/// and kind, a handful of runs per word.
enum SearchAnchors {
    /// How many of a token's matches a probe reads to judge how common it is.
    static let sampleSize = 64
    /// How many runs of one word are probed at most (spread over the word).
    static let probedRuns = 4
    /// The length of a run: the longest token the index holds.
    static let runLength = 3

    /// Each term's token in `kind`'s index.
    static func anchors(for terms: [String], of kind: ItemKind, in connection: Connection) throws -> [String] {
        let table = kind == .todo ? "todos" : "memos"
        let newestID = try connection.queryFirst("SELECT max(id) FROM \(table)") { $0.int64(0) } ?? 0
        var anchors: [String] = []
        for term in terms {
            let runs = SearchAnchors.runs(of: term)
            guard runs.count > 1 else {
                anchors.append(runs[0])
                continue
            }
            var best: (run: String, density: Double)?
            // The first of equally rare runs wins.
            for run in runs {
                let density = try SearchAnchors.density(of: run, in: table, newestID: newestID, connection)
                if best.map({ density < $0.density }) ?? true { best = (run, density) }
            }
            anchors.append(best!.run)
        }
        return anchors
    }

    /// The candidate tokens of `term`: the term itself when it is no longer
    /// than a run, else its distinct runs (folded as the index folds them),
    /// at most `probedRuns`, spread from its start to its end.
    static func runs(of term: String) -> [String] {
        let scalars = Array(term.unicodeScalars)
        guard scalars.count > runLength else { return [term] }
        var seen = Set<[UInt32]>()
        var runs: [String] = []
        for start in 0...(scalars.count - runLength) {
            let run = scalars[start..<(start + runLength)]
            guard seen.insert(run.map(TextMatcher.fold)).inserted else { continue }
            var text = ""
            text.unicodeScalars.append(contentsOf: run)
            runs.append(text)
        }
        guard runs.count > probedRuns else { return runs }
        return (0..<probedRuns).map { runs[$0 * (runs.count - 1) / (probedRuns - 1)] }
    }

    // MARK: - Private

    /// Matches per row among the oldest rows: how far the token's first
    /// `sampleSize` matches reach, or, for a token with fewer matches in all,
    /// their count over every row. Reading a fixed sample keeps a probe cheap
    /// however common the token is; it reads from the oldest end because FTS5
    /// starts a walk there without first reading the token's whole doclist,
    /// as it must to start at the newest.
    private static func density(of run: String, in table: String, newestID: Int64,
                                _ connection: Connection) throws -> Double {
        let sample = try connection.queryFirst("""
            SELECT count(*), max(rowid) FROM (SELECT rowid FROM \(table)_search WHERE \(table)_search MATCH ?1
                                              ORDER BY rowid LIMIT \(SearchAnchors.sampleSize))
            """, SearchPhrase.quoted(run)) { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
        let rows = sample.0 < Int64(SearchAnchors.sampleSize) ? max(newestID, 1) : max(sample.1, 1)
        return Double(sample.0) / Double(rows)
    }
}
