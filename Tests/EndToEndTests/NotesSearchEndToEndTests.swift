import Foundation
import TestSupport
import XCTest

/// `memoapp search` and `memoapp memo search` through the built binary.
final class NotesSearchEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        app.run("memo", "add", "대한민국", "만세")
        app.run("memo", "add", "이번 주 안건", "--title", "주간회의록")
        app.run("memo", "add", "Quarterly REPORT draft, see \"appendix\" (NEAR the end) * - AND")
        app.run("todo", "add", "회의 준비", "--note", "slides for the report")
        app.run("todo", "add", "buy milk", "--tag", "장보기")
    }

    private func hits(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let result = app.run(arguments + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.array(file: file, line: line).map { "\($0["kind"] as? String ?? "?")\($0["id"] as? Int ?? -1)" }
    }

    func testKoreanIsFoundInsideWords() {
        XCTAssertEqual(hits("memo", "search", "민국"), ["memo1"])
        XCTAssertEqual(hits("memo", "search", "회의"), ["memo2"])
        XCTAssertEqual(hits("memo", "search", "회의록"), ["memo2"])
        XCTAssertEqual(Set(hits("search", "회의")), ["memo2", "todo1"])
        XCTAssertEqual(hits("search", "장보"), ["todo2"], "tags are searched")
        XCTAssertEqual(hits("search", "회의록", "주간"), ["memo2"], "every word, in any order")
        XCTAssertEqual(hits("search", "이번", "주"), ["memo2"])
        XCTAssertEqual(hits("search", "국"), ["memo1"], "one character")
    }

    func testEnglishIgnoresCaseAndSearchesNotes() {
        XCTAssertEqual(Set(hits("search", "report")), ["memo3", "todo1"])
        XCTAssertEqual(hits("memo", "search", "RePoRt"), ["memo3"])
        XCTAssertEqual(hits("search", "mi"), ["todo2"])
    }

    func testSyntaxInAQueryIsSearchedAsWritten() {
        for query in ["\"appendix\"", "(NEAR the end)", "*", "NEAR", "\"", "AND", "* -", "\"(NEAR the\""] {
            XCTAssertEqual(hits("memo", "search", query), ["memo3"], query)
        }
        // A query that starts with a dash goes after `--`, as for any command.
        let dashed = app.run("memo", "search", "--json", "--", "- AND").array()
        XCTAssertEqual(dashed.compactMap { $0["id"] as? Int }, [3])
        XCTAssertEqual(app.run("memo", "search", "- AND").status, 64)
        for query in ["NEAR(a b)", "a OR b", "zz*", "\"unclosed", "((("] {
            let result = app.run("search", query)
            XCTAssertEqual(result.status, 0, "\(query): \(result.stderr)")
            XCTAssertEqual(result.stdout, "Nothing found for '\(query)'.\n")
        }
    }

    func testSeveralWordsPhrasesAndAny() {
        XCTAssertEqual(hits("search", "report 준비"), ["todo1"], "words in the title and the note")
        XCTAssertEqual(hits("search", "report 초안"), [])
        XCTAssertEqual(Set(hits("search", "--any", "report 초안")), ["memo3", "todo1"])
        XCTAssertEqual(Set(hits("search", "report the")), ["memo3", "todo1"])
        XCTAssertEqual(Set(hits("search", "the report")), ["memo3", "todo1"], "the order of words does not matter")
        XCTAssertEqual(hits("search", "\"the report\""), ["todo1"], "a phrase, found as written")
        XCTAssertEqual(hits("search", "\"report the\""), [])
        XCTAssertEqual(hits("memo", "search", "\\\"appendix\\\""), ["memo3"], "a backslash makes a quote plain text")
        XCTAssertEqual(hits("memo", "search", "\"\"appendix\"\""), ["memo3"], "empty phrases around a word")
        XCTAssertEqual(app.run("search", "report", "준비").stdout, "KIND  ID  MATCH\ntodo   1  회의 [준비]\n",
                       "the title's match is shown")
    }

    func testAllShowsEveryHitAndLimitCutsIt() {
        for index in 0..<25 { app.run("memo", "add", "반복 \(index)") }
        XCTAssertEqual(hits("memo", "search", "반복").count, 20, "the default page")
        XCTAssertEqual(hits("memo", "search", "반복", "--all").count, 25)
        XCTAssertTrue(app.run("memo", "search", "반복").stdout.contains("(more results: use --limit N or --all)"))
        XCTAssertFalse(app.run("memo", "search", "반복", "--all").stdout.contains("more results"))
        XCTAssertEqual(hits("memo", "search", "반복", "--limit", "25").count, 25)
        let both = app.run("memo", "search", "반복", "--all", "--limit", "3")
        XCTAssertEqual(both.status, 64, both.stderr)
        XCTAssertEqual(hits("memo", "search", "반복", "--all"), hits("memo", "search", "반복", "--limit", "1000"))
    }

    func testTheSqliteShellCannotWriteAToDoButMemoappSQLCan() {
        let database = app.home + "/memoapp.db"
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [database, "INSERT INTO todos (title, created_at, updated_at) VALUES ('셸에서 추가', 0, 0)"]
        let errors = Pipe()
        shell.standardError = errors
        XCTAssertNoThrow(try shell.run())
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        XCTAssertNotEqual(shell.terminationStatus, 0)
        XCTAssertTrue(message.contains("no such tokenizer: memoapp_ngram_1"), message)
        XCTAssertEqual(sqlite3(database, "SELECT count(*) FROM todos"), "2", "the failed insert changed nothing")
        // Reading is fine; writing goes through memoapp-sql, which indexes the row as memoapp would.
        memoappSQL(database, "INSERT INTO todos (title, created_at, updated_at) VALUES ('셸에서 추가', 0, 0)")
        XCTAssertEqual(hits("search", "셸"), ["todo3"])
        XCTAssertEqual(memoappSQL(database, "SELECT title FROM todos WHERE id = 3"), "셸에서 추가")
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testMatchesAreMarkedInTextAndLocatedInJSON() {
        let text = app.run("memo", "search", "민국").stdout
        XCTAssertEqual(text, "KIND  ID  MATCH\nmemo   1  대한[민국] 만세\n")
        let titled = app.run("memo", "search", "안건").stdout
        XCTAssertEqual(titled, "KIND  ID  MATCH\nmemo   2  주간회의록 — 이번 주 [안건]\n")
        let hit = app.run("memo", "search", "민국", "--json").array().first ?? [:]
        XCTAssertEqual(hit["field"] as? String, "text")
        XCTAssertEqual(hit["match_start"] as? Int, 2)
        XCTAssertEqual(hit["match_length"] as? Int, 2)
        XCTAssertEqual(hit["snippet"] as? String, "대한[민국] 만세")
        XCTAssertEqual(hit["is_pinned"] as? Bool, false)
        XCTAssertNotNil(hit["score"] as? Double)
        // The hit names the same item `memo show` does, by its stable uid too.
        let shown = app.run("memo", "show", "1", "--json").object()
        XCTAssertNotNil(hit["uid"] as? String)
        XCTAssertEqual(hit["uid"] as? String, shown["uid"] as? String)
        // Longer queries carry it too.
        let long = app.run("memo", "search", "대한민국", "--json").array().first ?? [:]
        XCTAssertEqual(long["uid"] as? String, shown["uid"] as? String)
    }

    func testNothingFoundSaysSoInBothLanguages() {
        XCTAssertEqual(app.run("search", "없는말").stdout, "Nothing found for '없는말'.\n")
        XCTAssertEqual(app.run("search", "없는말", "--lang", "ko").stdout, "'없는말'에 대한 결과가 없습니다.\n")
        XCTAssertEqual(app.run("search", "없는말", "--json").stdout, "[]\n")
    }

    func testAnEmptyQueryIsAUsageError() {
        XCTAssertEqual(app.run("search", " ").status, 64)
        XCTAssertEqual(app.run("search").status, 64)
        XCTAssertEqual(app.run("memo", "search", "--json", "").errorCode, "usage")
    }

    func testAVeryLongQueryIsAUsageErrorNotAnInternalFailure() {
        // Once reached SQLite's LIKE limit in voice titles: exit 1, "pattern too complex".
        let long = String(repeating: "가나다 abc ", count: 8000)
        for command in [["search", "--", long], ["memo", "search", "--", long]] {
            let result = app.run(command)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.contains("the search query is too long"), result.stderr)
        }
        // The longest allowed query, in 4-byte characters and in escaped ones, still runs everywhere.
        for longest in [String(repeating: "🎉", count: 10_000), String(repeating: "%", count: 10_000)] {
            XCTAssertEqual(app.run("search", "--", longest).status, 0)
        }
    }

    func testLimitCutsTheList() {
        for index in 0..<5 { app.run("memo", "add", "반복 \(index)") }
        XCTAssertEqual(hits("memo", "search", "반복", "--limit", "2").count, 2)
        XCTAssertTrue(app.run("memo", "search", "반복", "--limit", "2").stdout.contains("--limit"))
        XCTAssertEqual(app.run("search", "반복", "--limit", "0").status, 64)
    }

    func testSearchIsGatedBeforeOnboarding() {
        let other = Memoapp(home: folder.appending("fresh"))
        let result = other.run("search", "x", "--json")
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.errorCode, "onboarding_required")
    }
}
