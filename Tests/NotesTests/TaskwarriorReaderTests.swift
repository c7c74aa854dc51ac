import MemoCore
import Notes
import XCTest

final class TaskwarriorReaderTests: XCTestCase {
    private let reader = TaskwarriorReader(calendar: seoul)
    private let uuid = "250fccc0-226d-43ba-8401-5f0ff587bb7f"

    private func read(_ json: String) throws -> TaskwarriorReader.Result {
        try reader.tasks(in: Array(json.utf8), source: "tasks.json")
    }

    /// One task whose members are `members` (JSON text) plus a status, uuid and
    /// description unless given.
    private func task(_ members: String = "", status: String = "pending") -> String {
        var fields = members
        if !members.contains("\"status\"") { fields += (fields.isEmpty ? "" : ",") + "\"status\":\"\(status)\"" }
        if !members.contains("\"uuid\"") { fields += ",\"uuid\":\"\(uuid)\"" }
        if !members.contains("\"description\"") { fields += ",\"description\":\"Buy milk\"" }
        return "{" + fields + "}"
    }

    private func one(_ members: String, status: String = "pending") throws -> ImportedTodo {
        let result = try read("[" + task(members, status: status) + "]")
        XCTAssertEqual(result.todos.count, 1)
        return try XCTUnwrap(result.todos.first)
    }

    private func failure(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let result = try read(json)
            XCTFail("read \(result.todos.count) to-dos", file: file, line: line)
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput, file: file, line: line)
            return error.message.en
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    /// Seconds since 1970 of a UTC date and time.
    private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
        -> Timestamp {
        FixedOffsetCalendar(offsetSeconds: 0).instant(
            of: CivilDateTime(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute,
                              second: second))
    }

    // MARK: Fields

    func testEveryMappedFieldOfAPendingTask() throws {
        let todo = try one("""
            "id":1,"description":"회의록 작성 😀","due":"20261201T053000Z","entry":"20261129T132404Z",\
            "modified":"20261129T140000Z","priority":"H","project":"work.q4","tags":["errand","shop"],\
            "urgency":16.99,"annotations":[{"entry":"20261129T132500Z","description":"first note"},\
            {"entry":"20261130T010000Z","description":"두 번째"}]
            """)
        XCTAssertEqual(todo.uid, uuid)
        XCTAssertEqual(todo.title, "회의록 작성 😀")
        XCTAssertFalse(todo.isDone)
        XCTAssertEqual(todo.createdAt, utc(2026, 11, 29, 13, 24, 4))
        XCTAssertEqual(todo.updatedAt, utc(2026, 11, 29, 14))
        XCTAssertNil(todo.doneAt)
        XCTAssertEqual(todo.due, Due(instant: utc(2026, 12, 1, 5, 30), hasTime: true))
        XCTAssertEqual(todo.priority, .high)
        XCTAssertEqual(todo.tags, ["project:work.q4", "errand", "shop"])
        // Annotation times in the reader's calendar (Seoul, UTC+9).
        XCTAssertEqual(todo.note, "2026-11-29 22:25 first note\n2026-11-30 10:00 두 번째")
    }

    func testCompletedTaskIsDoneAtItsEnd() throws {
        let todo = try one(#""end":"20261129T155953Z","entry":"20261128T000000Z""#, status: "completed")
        XCTAssertTrue(todo.isDone)
        XCTAssertEqual(todo.doneAt, utc(2026, 11, 29, 15, 59, 53))
        let withoutEnd = try one("", status: "completed")
        XCTAssertTrue(withoutEnd.isDone)
        XCTAssertNil(withoutEnd.doneAt)
    }

    func testDeletedTasksAndTemplatesWithoutARuleAreSkipped() throws {
        let result = try read("[" + task(status: "deleted") + "," + task(status: "recurring") + ","
            + task(#""uuid":"0ca23634-f791-47ef-aa08-f3bcc2d13092","recur":"weekly","parent":"x""#) + "]")
        XCTAssertEqual(result.skipped, 2)
        XCTAssertEqual(result.todos.map(\.uid), ["0ca23634-f791-47ef-aa08-f3bcc2d13092"])
        XCTAssertEqual(result.todos.first?.note, "recur: weekly", "an instance without a due date keeps it in the note")
        XCTAssertNil(result.todos.first?.repeatRule)
    }

    func testATemplateAndItsOpenInstancesBecomeOneRecurringToDo() throws {
        let template = "\"uuid\":\"\(uuid)\",\"recur\":\"2wks\",\"due\":\"20261101T000000Z\",\"description\":\"Water plants\""
        let later = #""uuid":"11111111-f791-47ef-aa08-f3bcc2d13092","due":"20261215T000000Z","recur":"2wks","parent":"#
            + "\"\(uuid)\",\"description\":\"Water plants\""
        let sooner = #""uuid":"22222222-f791-47ef-aa08-f3bcc2d13092","due":"20261201T000000Z","recur":"2wks","parent":"#
            + "\"\(uuid)\",\"description\":\"Water plants\""
        let finished = #""uuid":"33333333-f791-47ef-aa08-f3bcc2d13092","due":"20261117T000000Z","recur":"2wks","parent":"#
            + "\"\(uuid)\",\"description\":\"Water plants\",\"end\":\"20261117T100000Z\""
        let other = #""uuid":"44444444-f791-47ef-aa08-f3bcc2d13092","description":"Buy milk""#
        let result = try read("[" + [task(later), task(template, status: "recurring"), task(finished, status: "completed"),
                                     task(other), task(sooner)].joined(separator: ",") + "]")
        XCTAssertEqual(result.todos.map(\.uid), ["33333333-f791-47ef-aa08-f3bcc2d13092", "44444444-f791-47ef-aa08-f3bcc2d13092",
                                                 "22222222-f791-47ef-aa08-f3bcc2d13092"],
                       "history and other tasks as read, then the soonest open instance")
        XCTAssertEqual(result.skipped, 2, "the template and the later instance")
        let recurring = try XCTUnwrap(result.todos.last)
        XCTAssertEqual(recurring.repeatRule, RepeatRule(every: 2, unit: .week))
        XCTAssertEqual(recurring.due?.date(in: seoul), CivilDate(year: 2026, month: 12, day: 1))
        XCTAssertNil(recurring.note)
        XCTAssertNil(result.todos[0].repeatRule, "a finished instance is history")
        XCTAssertTrue(result.todos[0].isDone)

        let alone = try read("[" + task(template, status: "recurring") + "]")
        XCTAssertEqual(alone.todos.map(\.uid), [uuid], "a template without open instances is the recurring to-do")
        XCTAssertEqual(alone.todos.first?.repeatRule, RepeatRule(every: 2, unit: .week))
    }

    func testWaitingTasksAreOpenWithTheirDatesInTheNote() throws {
        let todo = try one(#""wait":"20261231T150000Z","scheduled":"20261205T000000Z","until":"20270101T120000Z""#,
                           status: "waiting")
        XCTAssertFalse(todo.isDone)
        XCTAssertEqual(todo.note, "wait: 2027-01-01\nscheduled: 2026-12-05 09:00\nuntil: 2027-01-01 21:00")
    }

    func testPrioritiesAndUnknownPriority() throws {
        XCTAssertEqual(try one(#""priority":"M""#).priority, .medium)
        XCTAssertEqual(try one(#""priority":"L""#).priority, .low)
        let custom = try one(#""priority":"urgent""#)
        XCTAssertNil(custom.priority)
        XCTAssertEqual(custom.note, "priority: urgent")
    }

    func testDueAtLocalMidnightOrEndOfDayIsDateOnly() throws {
        let date = CivilDate(year: 2026, month: 12, day: 1)
        // Seoul midnight of 2026-12-01 is 15:00 UTC the day before.
        XCTAssertEqual(try one(#""due":"20261130T150000Z""#).due, Due.endOf(date, in: seoul))
        XCTAssertEqual(try one(#""due":"20261201T145959Z""#).due, Due.endOf(date, in: seoul))
        XCTAssertEqual(try one(#""due":"20261201T000000Z""#).due?.hasTime, true, "09:00 in Seoul")
    }

    func testUUIDIsLowercased() throws {
        XCTAssertEqual(try one(#""uuid":"250FCCC0-226D-43BA-8401-5F0FF587BB7F""#).uid, uuid)
    }

    func testUnknownFieldsAndNullsAreIgnored() throws {
        let todo = try one(#""depends":"x","urgency":3,"imask":0,"mask":"-","udaField":{"a":[1]},"due":null,"tags":null"#)
        XCTAssertNil(todo.due)
        XCTAssertEqual(todo.tags, [])
    }

    func testEmptyExportHasNoTasks() throws {
        XCTAssertEqual(try read("[]"), TaskwarriorReader.Result(todos: [], skipped: 0))
        XCTAssertEqual(try read("[\n]\n"), TaskwarriorReader.Result(todos: [], skipped: 0))
    }

    // MARK: Malformed exports name the JSON path

    func testWrongTypesNameThePath() {
        let good = task()
        XCTAssertEqual(failure("[" + good + "," + task(#""description":42"#) + "]"),
                       "tasks.json: $[1].description: expected a string, found an integer")
        XCTAssertEqual(failure("[" + task(#""tags":"errand""#) + "]"), "tasks.json: $[0].tags: expected an array, found a string")
        XCTAssertEqual(failure("[" + task(#""tags":["ok",7]"#) + "]"), "tasks.json: $[0].tags[1]: expected a string, found an integer")
        XCTAssertEqual(failure("[" + task(#""annotations":[{"entry":"20261129T132500Z"}]"#) + "]"),
                       "tasks.json: $[0].annotations[0].description: missing; expected a string")
        XCTAssertEqual(failure("[" + task(#""due":20261129"#) + "]"), "tasks.json: $[0].due: expected a string, found an integer")
        XCTAssertEqual(failure("[" + task(#""project":["a"]"#) + "]"), "tasks.json: $[0].project: expected a string, found an array")
        XCTAssertEqual(failure("[" + good + ", 3]"), "tasks.json: $[1]: expected an object, found an integer")
        XCTAssertEqual(failure(#"{"description":"not an array"}"#), "tasks.json: $: expected an array, found an object")
    }

    func testMissingRequiredFieldsNameThePath() {
        XCTAssertEqual(failure(#"[{"uuid":"250fccc0-226d-43ba-8401-5f0ff587bb7f","description":"x"}]"#),
                       "tasks.json: $[0].status: missing; expected a string")
        XCTAssertEqual(failure(#"[{"status":"pending","uuid":"250fccc0-226d-43ba-8401-5f0ff587bb7f"}]"#),
                       "tasks.json: $[0].description: missing; expected a string")
        XCTAssertEqual(failure(#"[{"status":"pending","description":"x"}]"#),
                       "tasks.json: $[0].uuid: missing; expected a string")
    }

    func testDatesOutsideTheYearsMemoappShowsAndTitlesOfTwoLinesAreRefused() {
        XCTAssertEqual(failure("[" + task(#""due":"00000101T000000Z""#) + "]"),
                       "tasks.json: $[0].due: the date is outside the years 1 to 9999 memoapp shows")
        XCTAssertEqual(failure("[" + task(#""entry":"00001231T235959Z""#) + "]"),
                       "tasks.json: $[0].entry: the date is outside the years 1 to 9999 memoapp shows")
        // The due is the end of its day in Seoul, 0001-01-01 ends there before it does in UTC: in range.
        XCTAssertNoThrow(try read("[" + task(#""due":"00010101T000000Z""#) + "]"))
        XCTAssertEqual(failure("[" + task(#""description":"one\ntwo""#) + "]"),
                       "tasks.json: $[0].description: the description must be one line (it becomes the title)")
        XCTAssertEqual(failure("[" + task(#""description":"one\ntwo""#) + "]"),
                       "tasks.json: $[0].description: the description must be one line (it becomes the title)")
    }

    func testBadValuesNameThePath() {
        XCTAssertEqual(failure("[" + task(#""status":"archived""#) + "]"),
                       "tasks.json: $[0].status: unknown status 'archived' (pending, waiting, completed, deleted or recurring)")
        XCTAssertEqual(failure("[" + task(#""uuid":"not-a-uuid""#) + "]"), "tasks.json: $[0].uuid: 'not-a-uuid' is not a UUID")
        XCTAssertEqual(failure("[" + task(#""uuid":"250fccc0-226d-43ba-8401-5f0ff587bb7g""#) + "]"),
                       "tasks.json: $[0].uuid: '250fccc0-226d-43ba-8401-5f0ff587bb7g' is not a UUID")
        XCTAssertEqual(failure("[" + task(#""description":"  ""#) + "]"), "tasks.json: $[0].description: the description is empty")
        XCTAssertEqual(failure("[" + task(#""entry":"2026-11-29T13:24:04Z""#) + "]"),
                       "tasks.json: $[0].entry: '2026-11-29T13:24:04Z' is not a Taskwarrior date (like 20261129T132404Z)")
        XCTAssertEqual(failure("[" + task(#""due":"20261345T000000Z""#) + "]"),
                       "tasks.json: $[0].due: '20261345T000000Z' is not a real date and time")
        XCTAssertEqual(failure("[" + task(#""end":"20261129T246000Z""#, status: "completed") + "]"),
                       "tasks.json: $[0].end: '20261129T246000Z' is not a real date and time")
        XCTAssertEqual(failure("[" + task(#""project":"my project""#) + "]"),
                       "tasks.json: $[0].project: a tag is one word without spaces or commas: 'project:my project'")
        XCTAssertEqual(failure("[" + task(#""tags":["a,b"]"#) + "]"),
                       "tasks.json: $[0].tags[0]: a tag is one word without spaces or commas: 'a,b'")
    }

    func testSyntaxErrorsNameTheLine() {
        XCTAssertEqual(failure("[\n" + task() + ",\n" + task() + "\n")?.hasPrefix("tasks.json: invalid JSON at line 4, "), true)
        XCTAssertEqual(failure("[" + task(#""a":1,"a":2"#) + "]")?.contains("duplicate object key"), true)
        XCTAssertEqual(failure("")?.hasPrefix("tasks.json: invalid JSON at line 1"), true)
    }

    func testKoreanMessages() {
        do {
            _ = try read("[" + task(#""description":42"#) + "]")
            XCTFail("no error")
        } catch let error as MemoError {
            XCTAssertEqual(error.message.ko, "tasks.json: $[0].description: 형식이 맞지 않습니다 (예상: 문자열, 실제: 정수)")
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }
}
