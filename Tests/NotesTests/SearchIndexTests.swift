import MemoCore
@testable import Notes
import SQLite
import XCTest

/// The search index itself: its tokenizer, how it is folded and decoded, and
/// the migration that builds it for a database made at the old schema.
final class SearchIndexTests: NotesTestCase {
    /// The tokens the index holds for `text` (one column's worth), as text.
    private func tokens(_ text: String) throws -> [String] {
        try connection.execute("DELETE FROM todos")
        _ = try TodoStore(connection: connection, clock: clock).add(NewTodo(title: text))
        try connection.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.todo_terms USING fts5vocab(main, todos_search, 'row')
            """)
        return try connection.query("SELECT term FROM temp.todo_terms ORDER BY term") { $0.string(0) }
    }

    func testEveryRunOfOneToThreeCharactersIsATokenCaseFolded() throws {
        XCTAssertEqual(try tokens("대한민국"), ["국", "대", "대한", "대한민", "민", "민국", "한", "한민", "한민국"])
        XCTAssertEqual(try tokens("AbA"), ["a", "ab", "aba", "b", "ba"])
        XCTAssertEqual(try tokens("x"), ["x"])
        XCTAssertEqual(try tokens("É."), [".", "é", "é."])
    }

    func testBothIndexesUseTheTokenizerRegisteredUnderItsName() throws {
        let tables = try connection.query("SELECT sql FROM sqlite_master WHERE name IN ('todos_search', 'memos_search')") {
            $0.string(0)
        }
        XCTAssertEqual(tables.count, 2)
        XCTAssertTrue(tables.allSatisfy { $0.contains("tokenize = '\(SearchTokenizer.name)'") && $0.contains("detail = none") },
                      "\(tables)")
    }

    func testANulIsIndexedWithoutAZeroByteAndFoundAgain() throws {
        _ = try tokens("a\0b")
        XCTAssertNoThrow(try connection.execute("INSERT INTO todos_search (todos_search) VALUES ('integrity-check')"))
        let found = try connection.query("SELECT rowid FROM todos_search WHERE todos_search MATCH ?",
                                         SearchPhrase.quoted("a\0b")) { $0.int64(0) }
        XCTAssertEqual(found.count, 1)
    }

    func testTheTokenizerDecodesUTF8AsSwiftDoes() {
        var generator = SplitMix64(seed: 7)
        let pieces: [[UInt8]] = [[0x41], [0xED, 0x95, 0x9C], [0xF0, 0x9F, 0x8E, 0x89], [0xC3, 0xA9], [0x80], [0xC0, 0x80],
                                 [0xE0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F], [0xFF], [0xE2]]
        for _ in 0..<2000 {
            let bytes = (0..<Int(generator.next() % 12)).flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            var decoded: [UInt32] = []
            bytes.withUnsafeBufferPointer { buffer in
                var reader = SearchTextReader(buffer)
                while let character = reader.nextCharacter() { decoded.append(character.value) }
            }
            XCTAssertEqual(decoded, TextMatcher.folded(String(decoding: bytes, as: UTF8.self)), "\(bytes)")
        }
    }

    func testQueryEscapesAreReadBack() {
        let phrase = Array("a\u{4}0b\u{4}\u{4}c\u{4}x\u{4}".utf8)
        var read: [UInt32] = []
        phrase.withUnsafeBufferPointer { buffer in
            var reader = SearchTextReader(buffer)
            while let character = reader.nextQueryCharacter() { read.append(character.value) }
        }
        XCTAssertEqual(read, [0x61, 0, 0x62, 4, 0x63, 4, 0x78, 4], "only \\u{4}0 and \\u{4}\\u{4} are escapes")
    }

    func testTheFoldShortcutsAgreeWithUnicode() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            let expected = scalar.properties.changesWhenLowercased && lower.count == 1 ? lower.first!.value : value
            if TextMatcher.fold(value) != expected {
                XCTFail("U+\(String(value, radix: 16)) folds to \(TextMatcher.fold(value)), not \(expected)")
                return
            }
        }
    }

    func testALongerWordIsLookedUpByOneOfItsRuns() {
        XCTAssertEqual(SearchAnchors.runs(of: "회의"), ["회의"])
        XCTAssertEqual(SearchAnchors.runs(of: "회의록"), ["회의록"])
        XCTAssertEqual(SearchAnchors.runs(of: "meeting"), ["mee", "eet", "eti", "ing"], "four, spread over the word")
        XCTAssertEqual(SearchAnchors.runs(of: "abAB"), ["abA", "bAB"])
        XCTAssertEqual(SearchAnchors.runs(of: "ABab"), ["ABa", "Bab"])
        XCTAssertEqual(SearchAnchors.runs(of: "abab"), ["aba", "bab"])
        XCTAssertEqual(SearchAnchors.runs(of: "AbAb"), ["AbA", "bAb"], "runs that fold alike count once")
        XCTAssertEqual(SearchAnchors.runs(of: "aaaaaa"), ["aaa"])
    }

    func testADatabaseAtTheTrigramSchemaIsMigratedAndItsRowsFound() throws {
        connection = nil
        let path = directory + "/old.db"
        let old = try Connection(path: path)
        var before = Migrator()
        before.register(Array(NotesSchema.migrations.prefix { $0.name != "notes.7-todo-search-by-characters" }))
        try before.apply(to: old)
        // Rows written through the trigram triggers, as an older memoapp wrote them.
        try old.execute("""
            INSERT INTO todos (title, note, tags, created_at, updated_at, uid) VALUES
                ('회의 준비', 'slides', 'work', 1, 1, 'a'), ('buy milk', NULL, '', 2, 2, 'b')
            """)
        try old.execute("INSERT INTO memos (title, text, created_at, updated_at, uid) VALUES ('대한민국', 'Meeting notes', 3, 3, 'c')")
        let oldTables = try old.query("SELECT name FROM sqlite_master WHERE name LIKE '%fts%' AND type = 'table'") { $0.string(0) }
        XCTAssertTrue(oldTables.contains("todos_fts"))

        var migrator = Migrator()
        migrator.register(NotesSchema.migrations)
        try migrator.apply(to: old)
        XCTAssertEqual(try old.query("SELECT name FROM sqlite_master WHERE name LIKE '%fts%'") { $0.string(0) }, [])
        for table in ["todos_search", "memos_search"] {
            XCTAssertNoThrow(try old.execute("INSERT INTO \(table) (\(table)) VALUES ('integrity-check')"))
        }
        let search = NoteSearch(connection: old)
        func found(_ text: String) throws -> [String] {
            try search.search(SearchQuery(text)).hits.map { "\($0.kind.rawValue)\($0.id)" }
        }
        XCTAssertEqual(try found("회"), ["todo1"])
        XCTAssertEqual(try found("민국"), ["memo1"])
        XCTAssertEqual(try found("meeting"), ["memo1"])
        XCTAssertEqual(try found("milk"), ["todo2"])
        XCTAssertEqual(try found("work"), ["todo1"])
        // And the triggers keep the new index in step from here on.
        let todos = TodoStore(connection: old, clock: clock)
        _ = try todos.edit(id: 2, TodoChanges(title: "buy bread"))
        XCTAssertEqual(try found("milk"), [])
        XCTAssertEqual(try found("bread"), ["todo2"])
    }

    func testAnEditThatLeavesTheSearchedTextAloneLeavesTheIndexAlone() throws {
        let store = makeTodoStore()
        let todo = try store.add(NewTodo(title: "색인 그대로", note: "note"))
        // total_changes counts the rows a trigger writes too (https://www.sqlite.org/c3ref/total_changes.html).
        let changes = { try self.connection.queryFirst("SELECT total_changes()") { $0.int(0) } ?? 0 }
        var start = try changes()
        _ = try store.edit(id: todo.id, TodoChanges(priority: .set(.high)))
        XCTAssertEqual(try changes() - start, 1, "the row alone")
        start = try changes()
        _ = try store.edit(id: todo.id, TodoChanges(title: "색인 바꿈"))
        XCTAssertGreaterThan(try changes() - start, 1, "the row, and the index's own tables")
        XCTAssertEqual(try NoteSearch(connection: connection).search(SearchQuery("바꿈")).hits.map(\.id), [todo.id])
        assertSearchIndexesIntact()
    }
}
