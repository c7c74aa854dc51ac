import MemoCore
import Notes
import XCTest

final class TodoTxtReaderTests: XCTestCase {
    private let reader = TodoTxtReader(calendar: seoul)

    private func read(_ text: String) throws -> [ImportedTodo] {
        try reader.todos(in: Array(text.utf8), source: "todo.txt")
    }

    private func one(_ line: String, file: StaticString = #filePath, testLine: UInt = #line) throws -> ImportedTodo {
        let todos = try read(line)
        XCTAssertEqual(todos.count, 1, file: file, line: testLine)
        return try XCTUnwrap(todos.first, file: file, line: testLine)
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        failure(Array(text.utf8), file: file, line: line)
    }

    private func failure(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        do {
            let todos = try reader.todos(in: bytes, source: "todo.txt")
            XCTFail("read \(todos.count) to-dos", file: file, line: line)
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput, file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    private func startOfDay(_ year: Int, _ month: Int, _ day: Int) -> Timestamp {
        seoul.startOfDay(CivilDate(year: year, month: month, day: day))
    }

    // MARK: Fields

    func testPlainLineIsAnOpenToDoWithItsText() throws {
        let todo = try one("Post signs around the neighborhood")
        XCTAssertEqual(todo.title, "Post signs around the neighborhood")
        XCTAssertFalse(todo.isDone)
        XCTAssertNil(todo.priority)
        XCTAssertNil(todo.createdAt)
        XCTAssertNil(todo.doneAt)
        XCTAssertNil(todo.due)
        XCTAssertNil(todo.note)
        XCTAssertEqual(todo.tags, [])
    }

    func testPriorityLettersMapToThreeLevels() throws {
        XCTAssertEqual(try one("(A) Call Mom").priority, .high)
        XCTAssertEqual(try one("(B) Call Mom").priority, .medium)
        XCTAssertEqual(try one("(C) Call Mom").priority, .low)
        let later = try one("(Q) Call Mom")
        XCTAssertEqual(later.priority, .low)
        XCTAssertEqual(later.note, "pri:Q", "a letter after C is kept")
        XCTAssertEqual(try one("(A) Call Mom").title, "Call Mom")
        XCTAssertNil(try one("(C) Call Mom").note)
    }

    func testPrioritiesTheSpecDoesNotRecogniseStayText() throws {
        for line in ["Really gotta call Mom (A) @phone", "(b) Get back to the boss", "(B)->Submit TPS report",
                     "(AB) two letters"] {
            let todo = try one(line)
            XCTAssertNil(todo.priority, line)
        }
        XCTAssertEqual(try one("(b) Get back to the boss").title, "(b) Get back to the boss")
    }

    func testCreationDateAfterPriorityOrFirst() throws {
        let withPriority = try one("(A) 2011-03-02 Call Mom")
        XCTAssertEqual(withPriority.createdAt, startOfDay(2011, 3, 2))
        XCTAssertEqual(withPriority.title, "Call Mom")
        XCTAssertEqual(try one("2011-03-02 Document +TodoTxt task format").createdAt, startOfDay(2011, 3, 2))
        let late = try one("(A) Call Mom 2011-03-02")
        XCTAssertNil(late.createdAt, "a date later in the line is text")
        XCTAssertEqual(late.title, "Call Mom 2011-03-02")
    }

    func testDoneLineWithCompletionAndCreationDates() throws {
        let todo = try one("x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github")
        XCTAssertTrue(todo.isDone)
        XCTAssertEqual(todo.doneAt, startOfDay(2011, 3, 2))
        XCTAssertEqual(todo.createdAt, startOfDay(2011, 3, 1))
        XCTAssertEqual(todo.title, "Review Tim's pull request +TodoTxtTouch @github")
        XCTAssertEqual(todo.tags, ["TodoTxtTouch", "github"])
    }

    func testDoneLineWithCompletionDateOnlyOrNone() throws {
        let dated = try one("x 2026-11-29 Plain task")
        XCTAssertTrue(dated.isDone)
        XCTAssertEqual(dated.doneAt, startOfDay(2026, 11, 29))
        XCTAssertNil(dated.createdAt)
        let undated = try one("x Plain task")
        XCTAssertTrue(undated.isDone)
        XCTAssertNil(undated.doneAt)
        XCTAssertEqual(undated.title, "Plain task")
    }

    func testOnlyALowercaseXAndASpaceMarkDone() throws {
        for line in ["xylophone lesson", "X 2012-01-01 Make resolutions", "(A) x Find ticket prices"] {
            XCTAssertFalse(try one(line).isDone, line)
        }
        XCTAssertEqual(try one("X 2012-01-01 Make resolutions").title, "X 2012-01-01 Make resolutions")
    }

    func testPriKeyGivesADoneTaskItsPriority() throws {
        let todo = try one("x 2026-11-29 2026-11-01 Ship it pri:A")
        XCTAssertEqual(todo.priority, .high)
        XCTAssertEqual(todo.title, "Ship it")
        XCTAssertNil(todo.note)
        XCTAssertEqual(try one("(B) both pri:A").priority, .medium, "the leading priority wins")
    }

    func testProjectsAndContextsBecomeTagsAndStayInTheTitle() throws {
        let todo = try one("(B) Schedule Goodwill pickup +GarageSale @phone +GarageSale")
        XCTAssertEqual(todo.title, "Schedule Goodwill pickup +GarageSale @phone +GarageSale")
        XCTAssertEqual(todo.tags, ["GarageSale", "phone"])
        XCTAssertEqual(try one("회의록 작성 +업무 @사무실").tags, ["업무", "사무실"])
        XCTAssertEqual(try one("Clean +home @home +Home").tags, ["home"], "one kind of tag; the title keeps the signs")
        XCTAssertEqual(try one("Odd +#x +, @.").tags, [], "no word left that is a tag as written")
    }

    func testWordsThatOnlyLookLikeProjectsOrContexts() throws {
        XCTAssertEqual(try one("Email SoAndSo at soandso@example.com").tags, [])
        XCTAssertEqual(try one("Learn how to add 2+2").tags, [])
        XCTAssertEqual(try one("a lone + and @ sign").tags, [])
        XCTAssertEqual(try one("Call +Bob, then @home.").tags, ["Bob", "home"], "sentence punctuation is not part")
        XCTAssertEqual(try one("Buy +a,b today").tags, [], "a comma inside cannot be a tag")
        XCTAssertEqual(try one("Buy +a,b today").title, "Buy +a,b today")
    }

    func testDueDateIsADateOnlyDue() throws {
        let todo = try one("Pay rent due:2026-12-01 @home")
        XCTAssertEqual(todo.due, Due.endOf(CivilDate(year: 2026, month: 12, day: 1), in: seoul))
        XCTAssertEqual(todo.due?.hasTime, false)
        XCTAssertEqual(todo.title, "Pay rent @home")
    }

    func testOtherKeyValuePairsGoToTheNote() throws {
        let todo = try one("Water plants t:2026-12-01 rec:fortnightly due:2026-12-02 h:1")
        XCTAssertEqual(todo.title, "Water plants")
        XCTAssertEqual(todo.note, "t:2026-12-01\nrec:fortnightly\nh:1")
        XCTAssertNil(todo.repeatRule)
    }

    func testRecMakesAnOpenTaskWithADueDateRecur() throws {
        let fromDone = try one("Water plants rec:1w due:2026-12-02")
        XCTAssertEqual(fromDone.repeatRule, RepeatRule(every: 1, unit: .week, from: .done))
        XCTAssertNil(fromDone.note)
        let fromDue = try one("Pay rent due:2026-12-01 rec:+1m")
        XCTAssertEqual(fromDue.repeatRule, RepeatRule(every: 1, unit: .month, from: .due))
        // Without a due date, or done, the word stays in the note.
        let undated = try one("Stretch rec:1d")
        XCTAssertNil(undated.repeatRule)
        XCTAssertEqual(undated.note, "rec:1d")
        let done = try one("x 2026-11-29 Pay rent due:2026-11-01 rec:+1m")
        XCTAssertNil(done.repeatRule)
        XCTAssertEqual(done.note, "rec:+1m")
    }

    func testTextThatOnlyLooksLikeAKeyValuePairStays() throws {
        let todo = try one("Meet at 10:30 see https://example.com/a:b or http://x.org Note: bring a:b:c")
        XCTAssertEqual(todo.title, "Meet at 10:30 see https://example.com/a:b or http://x.org Note: bring a:b:c")
        XCTAssertNil(todo.note)
    }

    func testBlankLinesCRLFAndByteOrderMarkAreIgnored() throws {
        let todos = try reader.todos(in: [0xEF, 0xBB, 0xBF] + Array("(A) first\r\n\r\n   \t \nsecond\r\n\n".utf8),
                                     source: "todo.txt")
        XCTAssertEqual(todos.map(\.title), ["first", "second"])
        XCTAssertEqual(todos.first?.priority, .high)
    }

    func testEveryLineEndEndsALine() throws {
        // CR alone (classic Mac OS), LF and CRLF, mixed in one file.
        let todos = try read("(A) first\rsecond\nthird\r\nfourth\r")
        XCTAssertEqual(todos.map(\.title), ["first", "second", "third", "fourth"])
        XCTAssertEqual(failure("ok\r\rx 2026-13-45 bad")?.message.en, "todo.txt:3: 2026-13-45 is not a date (the completion date)")
    }

    func testSpacingIsNormalised() throws {
        XCTAssertEqual(try one("  (A)   Call \t Mom   ").title, "Call Mom")
    }

    // MARK: Uids

    func testUidsAreStableAndIgnoreSpacing() throws {
        let first = try one("(A) Call Mom +family")
        XCTAssertEqual(try one("(A) Call Mom +family").uid, first.uid)
        XCTAssertEqual(try one("  (A)  Call Mom\t+family \r").uid, first.uid)
        XCTAssertNotEqual(try one("(B) Call Mom +family").uid, first.uid)
        XCTAssertEqual(first.uid.count, 36)
        XCTAssertEqual(Array(first.uid)[14], "8", "a version 8 UUID")
    }

    func testEqualLinesAreDifferentTasksWithStableUids() throws {
        let todos = try read("x Water plants\nx Water plants\nother\n")
        XCTAssertEqual(todos.count, 3)
        XCTAssertNotEqual(todos[0].uid, todos[1].uid)
        XCTAssertEqual(try read("x Water plants\nx Water plants\nother\n").map(\.uid), todos.map(\.uid))
    }

    // MARK: Reading a piece at a time

    /// The to-dos of `bytes` handed over in the pieces that `cuts` (offsets) make.
    private func readInPieces(_ bytes: [UInt8], cuts: [Int]) throws -> [ImportedTodo] {
        let bounds = [0] + cuts + [bytes.count]
        var pieces = zip(bounds, bounds.dropFirst()).map { bytes[$0..<$1] }.makeIterator()
        var todos: [ImportedTodo] = []
        try reader.forEachTodo(from: { pieces.next() }, source: "todo.txt") { todos.append($0) }
        return todos
    }

    func testAFileReadInPiecesGivesTheSameToDosWhereverItIsCut() throws {
        // A byte-order mark, every line end, blank lines, a repeated line and
        // Korean text, so that cuts fall inside CR LF, the mark and a character.
        let bytes = [0xEF, 0xBB, 0xBF] + Array("(A) 회의 준비\r\n\r\nx 물 주기\rx 물 주기\n\n  second +home\r\nlast".utf8)
        let whole = try reader.todos(in: bytes, source: "todo.txt")
        XCTAssertEqual(whole.map(\.title), ["회의 준비", "물 주기", "물 주기", "second +home", "last"])
        for first in 0...bytes.count {
            for second in first...bytes.count where second - first < 4 || second == bytes.count {
                let pieces = try readInPieces(bytes, cuts: [first, second])
                XCTAssertEqual(pieces, whole, "cut at \(first) and \(second)")
            }
        }
        XCTAssertEqual(try readInPieces(bytes, cuts: Array(1..<bytes.count)), whole, "a byte a piece")
    }

    func testABadLineReadInPiecesIsNamedAfterTheLinesBeforeItWereHandedOn() {
        var pieces = [Array("one\r".utf8)[...], Array("\ntwo\n".utf8)[...], Array("2026-13-45 bad\n".utf8)[...]].makeIterator()
        var titles: [String] = []
        XCTAssertThrowsError(try reader.forEachTodo(from: { pieces.next() }, source: "todo.txt") { titles.append($0.title) }) {
            XCTAssertEqual(($0 as? MemoError)?.message.en, "todo.txt:3: 2026-13-45 is not a date (the creation date)")
        }
        XCTAssertEqual(titles, ["one", "two"], "the caller's transaction is what undoes them")
    }

    // MARK: Malformed lines

    func testImpossibleDatesNameTheLine() {
        let creation = failure("ok\n\n2026-13-45 Bad creation date\n")
        XCTAssertEqual(creation?.message.en, "todo.txt:3: 2026-13-45 is not a date (the creation date)")
        XCTAssertEqual(creation?.message.ko, "todo.txt:3: 2026-13-45은(는) 없는 날짜입니다 (만든 날짜)")
        XCTAssertEqual(failure("x 2026-02-30 Pay")?.message.en, "todo.txt:1: 2026-02-30 is not a date (the completion date)")
        XCTAssertEqual(failure("x 2026-02-28 2026-00-01 Pay")?.message.en,
                       "todo.txt:1: 2026-00-01 is not a date (the creation date)")
        XCTAssertEqual(failure("(A) 2026-04-31 Pay")?.message.en, "todo.txt:1: 2026-04-31 is not a date (the creation date)")
    }

    func testBadDueValuesNameTheLine() {
        XCTAssertEqual(failure("a\nPay due:tomorrow")?.message.en, "todo.txt:2: due:tomorrow is not a date (YYYY-MM-DD)")
        XCTAssertEqual(failure("Pay due:2026-12-32")?.message.en, "todo.txt:1: 2026-12-32 is not a date (the due date)")
        XCTAssertEqual(failure("Pay due:2026-12-01 due:2026-12-02")?.message.en, "todo.txt:1: more than one due: date")
        XCTAssertEqual(failure("Pay due:2026-12-01 due:2026-12-02")?.message.ko, "todo.txt:1: due: 날짜가 둘 이상입니다")
    }

    func testBadPriKeyNamesTheLine() {
        XCTAssertEqual(failure("Pay pri:high")?.message.en, "todo.txt:1: pri:high is not a priority (A to Z)")
    }

    func testLineWithoutTextNamesTheLine() {
        XCTAssertEqual(failure("fine\nx 2026-11-29 2026-11-01")?.message.en, "todo.txt:2: no task text")
        XCTAssertEqual(failure("(A) due:2026-12-01")?.message.en, "todo.txt:1: no task text")
        XCTAssertEqual(failure("x")?.message.en, "todo.txt:1: no task text")
    }

    func testInvalidUTF8NamesTheLine() {
        let error = failure(Array("one\ntwo\n".utf8) + [0x62, 0xFF, 0x0A])
        XCTAssertEqual(error?.message.en, "todo.txt:3: not UTF-8 text")
        XCTAssertEqual(error?.message.ko, "todo.txt:3: UTF-8 텍스트가 아닙니다")
    }

    func testEmptyFileHasNoToDos() throws {
        XCTAssertEqual(try read("").count, 0)
        XCTAssertEqual(try read("\n\n  \n").count, 0)
    }
}
