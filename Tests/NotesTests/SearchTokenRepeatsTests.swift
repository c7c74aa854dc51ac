@testable import Notes
import SQLite
import XCTest

/// The tokenizer writes a document's repeated runs once (`SearchTokenSet`):
/// the index must hold what writing every run would give, and FTS5 must
/// count one token per character, as it always did.
final class SearchTokenRepeatsTests: NotesTestCase {
    /// Texts of few distinct characters, so that most runs repeat.
    private func repetitiveText(_ generator: inout SplitMix64) -> String {
        let alphabet = Array("aAbB 회의회.")
        let length = 1 + Int(generator.next() % 40)
        return String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    /// Every run of one to three characters of `text`, folded as the index folds.
    private func runs(of text: String) -> Set<String> {
        let folded = TextMatcher.folded(text)
        var found = Set<String>()
        for start in folded.indices {
            for length in 1...3 where start + length <= folded.count {
                var run = ""
                run.unicodeScalars.append(contentsOf: folded[start..<(start + length)].map { Unicode.Scalar($0)! })
                found.insert(run)
            }
        }
        return found
    }

    /// The index's terms and, for each, how many rows hold it.
    private func indexedTerms() throws -> [String: Int] {
        try connection.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.todo_terms USING fts5vocab(main, todos_search, 'row')
            """)
        var terms: [String: Int] = [:]
        for (term, rows) in try connection.query("SELECT term, doc FROM temp.todo_terms", map: { ($0.string(0), $0.int(1)) }) {
            terms[term] = rows
        }
        return terms
    }

    /// The tokens FTS5 counted per column (title, note, tags), from the
    /// index's averages record (rowid 1 of `%_data`: varints, the row count
    /// then a total per column; https://www.sqlite.org/fts5.html).
    private func countedTokens() throws -> [Int] {
        let record = try connection.queryFirst("SELECT block FROM todos_search_data WHERE id = 1") { $0.blob(0) } ?? []
        var values: [Int] = []
        var value = 0
        for byte in record {
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 {
                values.append(value)
                value = 0
            }
        }
        return Array(values.dropFirst())
    }

    private func insert(title: String, note: String?, tags: String, uid: String) throws {
        try connection.execute("INSERT INTO todos (title, note, tags, created_at, updated_at, uid) VALUES (?, ?, ?, 1, 1, ?)",
                               title, note, tags, uid)
    }

    func testRepeatedRunsIndexAsIfEveryRunWereWritten() throws {
        var generator = SplitMix64(seed: 11)
        var expected: [String: Int] = [:]
        var characters = [0, 0, 0]
        for row in 0..<300 {
            let title = repetitiveText(&generator)
            let note = row % 3 == 0 ? nil : repetitiveText(&generator)
            let tags = row % 5 == 0 ? "work 집" : ""
            try insert(title: title, note: note, tags: tags, uid: "u\(row)")
            let rowRuns = [title, note ?? "", tags].reduce(into: Set<String>()) { $0.formUnion(runs(of: $1)) }
            for run in rowRuns { expected[run, default: 0] += 1 }
            characters[0] += title.unicodeScalars.count
            characters[1] += note?.unicodeScalars.count ?? 0
            characters[2] += tags.unicodeScalars.count
        }
        XCTAssertEqual(try indexedTerms(), expected)
        XCTAssertEqual(try countedTokens(), characters, "one token counted per character")
        assertSearchIndexesIntact()
        // A delete takes every run back out.
        try connection.execute("DELETE FROM todos")
        XCTAssertEqual(try indexedTerms(), [:])
        XCTAssertEqual(try countedTokens(), [0, 0, 0])
    }

    func testATextWithMoreRunsThanTheSetHoldsIsIndexedWhole() throws {
        // 20,000 distinct ideographs, twice: about 120,000 distinct runs,
        // more than `SearchTokenSet` keeps in one go.
        let ideographs = String(String.UnicodeScalarView((0..<20_000).map { Unicode.Scalar(0x4E00 + UInt32($0))! }))
        let text = ideographs + ideographs
        try insert(title: "short", note: text, tags: "", uid: "long")
        try insert(title: "짧은 제목", note: "회의 회의", tags: "", uid: "after")
        var expected: [String: Int] = [:]
        for run in runs(of: text).union(runs(of: "short")) { expected[run, default: 0] += 1 }
        for run in runs(of: "짧은 제목").union(runs(of: "회의 회의")) { expected[run, default: 0] += 1 }
        XCTAssertEqual(try indexedTerms(), expected)
        XCTAssertEqual(try countedTokens(), [5 + 5, 40_000 + 5, 0])
        assertSearchIndexesIntact()
    }

    func testTheSetForgetsEachCallsTokens() {
        let set = SearchTokenSet()
        let key = SearchTokenSet.key(0x61, 0x62, nil)
        set.start(byteCount: 10)
        XCTAssertTrue(set.insert(key))
        XCTAssertFalse(set.insert(key))
        XCTAssertTrue(set.insert(SearchTokenSet.key(0x61, 0x62, 0x63)), "a longer run is another token")
        XCTAssertTrue(set.insert(SearchTokenSet.key(0x61, nil, nil)))
        set.start(byteCount: 100_000)
        XCTAssertTrue(set.insert(key), "a new call starts empty, also when the table grew")
        set.start(byteCount: 10)
        XCTAssertTrue(set.insert(key))
    }
}
