import MemoCore
@testable import Notes
import SQLite
import XCTest

final class NoteSearchTests: NotesTestCase {
    private var todos: TodoStore!
    private var memos: MemoStore!
    private var search: NoteSearch!

    override func setUpWithError() throws {
        try super.setUpWithError()
        todos = makeTodoStore()
        memos = makeMemoStore()
        search = NoteSearch(connection: connection)
    }

    private func found(_ query: String, in kinds: Set<ItemKind> = [.todo, .memo], limit: Int? = 1000,
                       combination: SearchQuery.Combination = .all) throws -> [String] {
        let results = try search.search(SearchQuery(query, combination: combination), in: kinds, limit: limit)
        return results.hits.map { "\($0.kind.rawValue)\($0.id)" }
    }

    func testKoreanFindsWordsInsideLongerWordsOnBothPaths() throws {
        let korea = try memos.add(NewMemo(text: "대한민국 만세")).id
        let minutes = try memos.add(NewMemo(text: "이번 주 안건 정리", title: "주간회의록")).id
        _ = try memos.add(NewMemo(text: "민속촌 회식"))
        XCTAssertEqual(try found("민국"), ["memo\(korea)"])
        XCTAssertEqual(try found("대한민국"), ["memo\(korea)"])
        XCTAssertEqual(try found("한민"), ["memo\(korea)"])
        XCTAssertEqual(try found("회의"), ["memo\(minutes)"])
        XCTAssertEqual(try found("회의록"), ["memo\(minutes)"])
        XCTAssertEqual(try found("주간회의록"), ["memo\(minutes)"])
        XCTAssertEqual(try found("국"), ["memo\(korea)"])
        XCTAssertEqual(try found("회의록 "), ["memo\(minutes)"], "surrounding spaces are dropped")
        XCTAssertEqual(try found("국민"), [])
        XCTAssertEqual(try found("회의실"), [])
    }

    func testEnglishIsCaseInsensitiveOnBothPaths() throws {
        let id = try memos.add(NewMemo(text: "Meeting notes: Hello World")).id
        for query in ["hello", "HELLO", "hElLo wOrLd", "He", "wo", "W", "NOTES:"] {
            XCTAssertEqual(try found(query), ["memo\(id)"], query)
        }
        XCTAssertEqual(try found("helloworld"), [])
    }

    func testMixedKoreanAndEnglish() throws {
        let id = try todos.add(NewTodo(title: "Q3 로드맵 review 준비", note: "PM팀과 sync")).id
        for query in ["로드맵 review", "맵 re", "Q3 로", "pm팀", "M팀", "SYNC", "3 로"] {
            XCTAssertEqual(try found(query), ["todo\(id)"], query)
        }
    }

    func testTitlesTextNotesAndTagsAreAllSearched() throws {
        let memo = try memos.add(NewMemo(text: "body text", title: "memo title", tags: ["프로젝트"])).id
        let todo = try todos.add(NewTodo(title: "todo title", note: "note words", tags: ["urgent"])).id
        XCTAssertEqual(Set(try found("title")), ["memo\(memo)", "todo\(todo)"])
        XCTAssertEqual(try found("body"), ["memo\(memo)"])
        XCTAssertEqual(try found("프로젝트"), ["memo\(memo)"])
        XCTAssertEqual(try found("프로"), ["memo\(memo)"])
        XCTAssertEqual(try found("note wo"), ["todo\(todo)"])
        XCTAssertEqual(try found("urgent"), ["todo\(todo)"])
        XCTAssertEqual(try found("title", in: [.memo]), ["memo\(memo)"])
        XCTAssertEqual(try found("title", in: [.todo]), ["todo\(todo)"])
    }

    func testOnlyQuotesAndBackslashesAreSyntax() throws {
        let texts = [
            "NEAR(a b) and AND or OR not NOT",
            "say \"hello\" twice \"\"",
            "star * and a* and -minus and ^caret",
            "(parens) {braces} [brackets] col:on title:x",
            "100% done_ok \\ back'slash",
            "'); DROP TABLE memos; --",
        ]
        var ids: [Int64] = []
        for text in texts { ids.append(try memos.add(NewMemo(text: text)).id) }
        let expectations: [(String, Int?)] = [
            ("NEAR(a b)", 0), ("NOT AND", 0), ("OR", 0), ("NOT", 0), ("not NOT", 0), ("and AND or", 0),
            ("\"hello\"", 1), ("\"", 1), ("\\\"\\\"", 1), ("\"hello", 1), ("y \"h", 1), ("\\\"hello\\\"", 1),
            ("*", 2), ("a*", 2), ("-minus", 2), ("^caret", 2), ("^", 2), ("-m", 2),
            ("(parens)", 3), ("(p", 3), ("s)", 3), ("{braces}", 3), ("col:on", 3), ("title:x", 3), (":", 3),
            ("100%", 4), ("%", 4), ("_", 4), ("E_", 4), ("_O", 4), ("%D", nil), ("0%", 4), ("%_", nil), ("done_", 4),
            ("\\", 4), ("\\\\", 4), ("k'sl", 4), ("\"% d\"", 4),
            ("'); DROP", 5), (";", 5), ("--", 5), ("DROP TABLE memos", 5), ("\"TABLE memos;\"", 5),
            ("NEAR(x y)", nil), ("a OR zzz", nil), ("zz*", nil), ("\0", nil), ("a\0b", nil), ("\"memos DROP\"", nil),
        ]
        for (query, index) in expectations {
            let expected = index.map { ["memo\(ids[$0])"] } ?? []
            XCTAssertEqual(try found(query), expected, query.debugDescription)
        }
        XCTAssertEqual(Set(try found("AND")), ["memo\(ids[0])", "memo\(ids[2])"], "case folds: 'and' too")
        XCTAssertEqual(Set(try found("-")), ["memo\(ids[2])", "memo\(ids[5])"])
        XCTAssertEqual(Set(try found(")")), ["memo\(ids[0])", "memo\(ids[3])", "memo\(ids[5])"])
        XCTAssertEqual(Set(try found("a")).count, 6)
        XCTAssertEqual(Set(try found("hello DROP", combination: .any)), ["memo\(ids[1])", "memo\(ids[5])"])
    }

    func testNoQueryThrowsAnSQLOrFTSError() throws {
        _ = try memos.add(NewMemo(text: "대한민국 hello \"world\" * \u{4}0 \u{4}\u{4}"))
        _ = try todos.add(NewTodo(title: "todo ' \" *"))
        var queries = ["\"", "\"\"\"", "*", "* *", "AND", "OR", "NOT", "NEAR", "NEAR(", ")", "(", "^", "-", "+",
                       ":", "a:", "{a b}", "\0", "\0\0\0", "'", "''", "\\", "%", "_", "🎉", "👩‍👩‍👧", "\u{4}", "\u{4}0",
                       "\u{4}\u{4}", "\"\\\"\"", "\\\\\"", String(repeating: "가", count: 5000),
                       String(repeating: "\"", count: 50), String(repeating: "\"", count: 51), "\u{FFFD}\u{FFFD}\u{FFFD}"]
        for scalar in [0x01, 0x1F, 0x7F, 0x2028, 0xFEFF] { queries.append(String(repeating: String(UnicodeScalar(scalar)!), count: 3)) }
        for combination in [SearchQuery.Combination.all, .any] {
            for text in queries {
                let query: SearchQuery
                do {
                    query = try SearchQuery(text, combination: combination)
                } catch let error as MemoError where error.kind == .usage {
                    // Nothing to find: only white space (U+2028 is a line separator) or empty phrases.
                    XCTAssertTrue(text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\"" },
                                  text.debugDescription)
                    continue
                }
                XCTAssertNoThrow(try search.search(query, limit: nil), text.debugDescription)
            }
        }
    }

    func testTextHoldingANulIsSearchedPastIt() throws {
        let memo = try memos.add(NewMemo(text: "before\0After 대한\0민국 Zy")).id
        let todo = try todos.add(NewTodo(title: "x\0Yz", note: "n\0Ab")).id
        for query in ["af", "AF", "zy", "ZY", "민국", "After", "aFTER 대한", "e\0a"] {
            XCTAssertEqual(try found(query), ["memo\(memo)"], query)
        }
        XCTAssertEqual(try found("yz"), ["todo\(todo)"])
        XCTAssertEqual(try found("ab"), ["todo\(todo)"])
        XCTAssertEqual(Set(try found("\0")), ["memo\(memo)", "todo\(todo)"])
        XCTAssertEqual(try found("한\0민"), ["memo\(memo)"])
        XCTAssertEqual(try found("대한민"), [])
    }

    func testTitleMatchesRankAboveBodyMatchesOnBothPaths() throws {
        let inBody = try memos.add(NewMemo(text: "회의록 회의록 회의록 in the body")).id
        let inTitle = try memos.add(NewMemo(text: "something else", title: "회의록")).id
        XCTAssertEqual(try found("회의록"), ["memo\(inTitle)", "memo\(inBody)"])
        XCTAssertEqual(try found("회의"), ["memo\(inTitle)", "memo\(inBody)"])
    }

    func testWithinATierTheItemAddedLastComesFirst() throws {
        let older = try memos.add(NewMemo(text: "민국 one")).id
        clock.advance(10)
        let todo = try todos.add(NewTodo(title: "x", note: "민국 todo")).id
        clock.advance(10)
        let newer = try memos.add(NewMemo(text: "민국 two")).id
        XCTAssertEqual(try found("민국"), ["memo\(newer)", "todo\(todo)", "memo\(older)"])
        clock.advance(10)
        // Editing does not make an item newer: the order is the order items were added.
        _ = try memos.edit(id: older, text: "민국 one edited")
        XCTAssertEqual(try found("민국"), ["memo\(newer)", "todo\(todo)", "memo\(older)"])
    }

    func testMatchesAreMarkedWithOffsetsInCharacters() throws {
        _ = try memos.add(NewMemo(text: "🇰🇷 대한민국 만세, 민국!"))
        let hit = try XCTUnwrap(search.search(SearchQuery("민국")).hits.first)
        XCTAssertEqual(hit.match, SearchMatch(field: .text, start: 5, length: 2))
        XCTAssertEqual(hit.snippet.rendered(open: "[", close: "]"), "🇰🇷 대한[민국] 만세, [민국]!")

        _ = try todos.add(NewTodo(title: "Write REPORT", note: "the report is due"))
        let todoHit = try XCTUnwrap(search.search(SearchQuery("report"), in: [.todo]).hits.first)
        XCTAssertEqual(todoHit.match, SearchMatch(field: .title, start: 6, length: 6))
        XCTAssertEqual(todoHit.snippet.rendered(open: "[", close: "]"), "Write [REPORT]")
        XCTAssertEqual(todoHit.title, "Write REPORT")
    }

    func testASnippetIsOneLineAndLeavesOtherControlCharactersToTheFrontEnd() throws {
        _ = try memos.add(NewMemo(text: "first\r\nsecond \u{1B}[2J needle\u{2028}third"))
        let hit = try XCTUnwrap(search.search(SearchQuery("needle")).hits.first)
        XCTAssertEqual(hit.snippet.text, "first  second \u{1B}[2J needle third", "each of CR and LF a space")
    }

    func testTheIndexFollowsEditsAndRemovals() throws {
        let memo = try memos.add(NewMemo(text: "사과 apple")).id
        let todo = try todos.add(NewTodo(title: "banana 바나나", tags: ["fruit"])).id
        _ = try memos.edit(id: memo, text: "포도 grape")
        XCTAssertEqual(try found("apple"), [])
        XCTAssertEqual(try found("사과"), [])
        XCTAssertEqual(try found("grape"), ["memo\(memo)"])
        _ = try todos.edit(id: todo, TodoChanges(addedTags: ["yellow"], removedTags: ["fruit"]))
        XCTAssertEqual(try found("fruit"), [])
        XCTAssertEqual(try found("yellow"), ["todo\(todo)"])
        _ = try todos.edit(id: todo, TodoChanges(note: .set("노트 memo")))
        XCTAssertEqual(try found("노트"), ["todo\(todo)"])
        _ = try todos.remove(ids: [todo])
        try memos.remove(ids: [memo])
        XCTAssertEqual(try found("grape"), [])
        XCTAssertEqual(try found("ye"), [])
        XCTAssertEqual(try found("바나나"), [])
        assertSearchIndexesIntact()
    }

    func testDoneToDosAndPinnedMemosSaySo() throws {
        let todo = try todos.add(NewTodo(title: "finished task")).id
        _ = try todos.markDone(ids: [todo])
        _ = try memos.add(NewMemo(text: "task memo", isPinned: true))
        let hits = try search.search(SearchQuery("task")).hits
        XCTAssertEqual(hits.first { $0.kind == .todo }?.isDone, true)
        XCTAssertEqual(hits.first { $0.kind == .memo }?.isPinned, true)
    }

    func testLimitCutsAndSaysThereIsMore() throws {
        for index in 0..<7 { _ = try memos.add(NewMemo(text: "회의 \(index)")) }
        for query in ["회의", "회의 "] {
            let results = try search.search(SearchQuery(query), limit: 5)
            XCTAssertEqual(results.hits.count, 5)
            XCTAssertTrue(results.hasMore)
        }
        let all = try search.search(SearchQuery("회의"), limit: 7)
        XCTAssertFalse(all.hasMore)
        XCTAssertEqual(try search.search(SearchQuery("회의 6"), limit: 5).hits.count, 1)
    }

    func testAHugeMemoIsFoundAndMarked() throws {
        let text = String(repeating: "filler 채움 ", count: 100_000) + "끝에 있는 보물"
        let id = try memos.add(NewMemo(text: text)).id
        XCTAssertEqual(try found("보물"), ["memo\(id)"])
        let hit = try XCTUnwrap(search.search(SearchQuery("\"있는 보물\"")).hits.first)
        XCTAssertEqual(hit.snippet.rendered(open: "[", close: "]").hasSuffix("끝에 [있는 보물]"), true)
        let words = try XCTUnwrap(search.search(SearchQuery("보물 있는")).hits.first)
        XCTAssertEqual(words.snippet.rendered(open: "[", close: "]").hasSuffix("끝에 [있는] [보물]"), true)
        XCTAssertEqual(hit.match?.start, text.unicodeScalars.count - 5)
    }

    /// Search against a brute-force scan of a random corpus of Korean,
    /// English and mixed text in titles, bodies and tags: the same items,
    /// nothing missing, nothing extra, for words of every length, several
    /// words, phrases, and both combinations; and in the order ranking defines.
    func testSearchAgreesWithABruteForceScan() throws {
        var generator = SplitMix64(seed: 42)
        let words = ["대한민국", "회의", "회의록", "주간", "정리", "민국", "국민", "사과", "Apple", "apple", "MEETING",
                     "notes", "50%", "snake_case", "N\0Ul", "\0", "a\\b", "로드맵", "review", "Q3", "팀", "a", "ab", "x-y",
                     "\"q\"", "*", "NEAR", "🎉", "한", "\u{4}0", "ÉCOLE", "école", "Straße"]
        func text(_ maximum: UInt64) -> String {
            let count = Int(generator.next() % maximum) + 1
            var text = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }
            if generator.next() % 5 == 0 { text.insert("\n", at: text.count / 2) }
            return text.joined(separator: generator.next() % 3 == 0 ? "" : " ")
        }
        var corpus: [(key: String, fields: [String?], created: Int)] = []
        for index in 0..<300 {
            // Line breaks in bodies only: a title is one line.
            var title = text(4).replacingOccurrences(of: "\n", with: " ")
            if !title.contains(where: { !$0.isWhitespace }) { title += "z" }  // a to-do needs a title
            let body = generator.next() % 3 == 0 ? nil : text(8)
            let tags = generator.next() % 4 == 0 ? ["tag\(generator.next() % 5)", "회의"] : []
            clock.advance(1)
            if index.isMultiple(of: 2) {
                // A memo's text cannot be empty; its title is optional.
                let memo = try memos.add(NewMemo(text: (body ?? "") + " z", title: generator.next() % 2 == 0 ? title : nil,
                                                 tags: tags))
                corpus.append(("memo\(memo.id)", [memo.title, memo.text, memo.tags.joined(separator: " ")], index))
            } else {
                let todo = try todos.add(NewTodo(title: title, note: body, tags: tags))
                corpus.append(("todo\(todo.id)", [todo.title, todo.note, todo.tags.joined(separator: " ")], index))
            }
        }
        var queries: [String] = words
        func piece(maximumLength: UInt64) -> String {
            let source = Array((corpus.randomElement(using: &generator)!.fields[0] ?? "").unicodeScalars)
            let length = min(Int(generator.next() % maximumLength) + 1, source.count)
            let start = Int(generator.next() % UInt64(source.count - length + 1))
            var piece = ""
            piece.unicodeScalars.append(contentsOf: source[start..<(start + length)])
            return piece
        }
        for _ in 0..<300 { queries.append(piece(maximumLength: 6)) }
        for _ in 0..<150 {
            let pieces = (0..<Int(generator.next() % 2 + 2)).map { _ in piece(maximumLength: 4) }
            queries.append(generator.next() % 4 == 0 ? "\"" + pieces.joined(separator: " ") + "\""
                                                     : pieces.joined(separator: " "))
        }
        var checked = Set<Int>()
        for text in queries {
            for combination in [SearchQuery.Combination.all, .any] {
                guard let query = try? SearchQuery(text, combination: combination) else { continue }
                let matchers = query.terms.map(TextMatcher.init)
                // A term is found when some field holds it; the tier is where the terms are.
                let expected = corpus.compactMap { item -> (key: String, tier: Int, created: Int)? in
                    let fields = item.fields.map { $0.map(TextMatcher.folded) ?? [] }
                    let inField = { (field: Int) in matchers.map { $0.occurs(in: fields[field]) } }
                    let (title, body, tags) = (inField(0), inField(1), inField(2))
                    let tier: Int
                    if combination == .all {
                        guard matchers.indices.allSatisfy({ title[$0] || body[$0] || tags[$0] }) else { return nil }
                        tier = !title.contains(false) ? 0 : matchers.indices.allSatisfy { title[$0] || tags[$0] } ? 1 : 2
                    } else {
                        guard title.contains(true) || body.contains(true) || tags.contains(true) else { return nil }
                        tier = title.contains(true) ? 0 : tags.contains(true) ? 1 : 2
                    }
                    return (item.key, tier, item.created)
                }
                // Newest first, then the newest `rankedWindow` by tier.
                let newest = expected.sorted { $0.created > $1.created }
                let window = newest.prefix(NoteSearch.rankedWindow).enumerated()
                    .sorted { ($0.element.tier, $0.offset) < ($1.element.tier, $1.offset) }.map(\.element)
                let ranked = (window + newest.dropFirst(NoteSearch.rankedWindow)).map(\.key)
                let results = try search.search(query, limit: nil)
                XCTAssertEqual(results.hits.map { "\($0.kind.rawValue)\($0.id)" }, ranked,
                               "\(combination) query \(text.debugDescription)")
                XCTAssertEqual(results.hits.map { Int($0.score) }, (window + newest.dropFirst(NoteSearch.rankedWindow)).map(\.tier))
                let page = try search.search(query)
                XCTAssertEqual(page.hits.map { "\($0.kind.rawValue)\($0.id)" }, Array(ranked.prefix(NoteSearch.defaultLimit)),
                               "the default page is the start of the whole list")
                XCTAssertEqual(page.hasMore, ranked.count > NoteSearch.defaultLimit)
                for term in query.terms { checked.insert(term.unicodeScalars.count) }
                if !expected.isEmpty { checked.insert(-query.terms.count) }
            }
        }
        XCTAssertTrue([1, 2, 3, 4, 5, 6].allSatisfy(checked.contains), "terms of every length: \(checked.sorted())")
        XCTAssertTrue(checked.contains(-2) && checked.contains(-3), "several words with hits: \(checked.sorted())")
        assertSearchIndexesIntact()
    }
}

/// A small deterministic generator, so the corpus is the same every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
