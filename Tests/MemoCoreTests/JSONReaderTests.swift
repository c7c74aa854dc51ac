import MemoCore
import XCTest

final class JSONReaderTests: XCTestCase {
    private let tasks = """
        [
          {"description": "one", "urgency": 1.5, "id": 1, "tags": ["a", "b"], "done": false},
          {"description": "two", "urgency": 2, "id": 2, "due": null},
          {"description": "three", "id": 3, "annotations": [{"description": "note"}]},
          {"description": 4, "id": "four", "tags": "x", "done": "no"}
        ]
        """

    private func document() throws -> JSONReader {
        try JSONReader(parsing: Array(tasks.utf8), source: "tasks.json")
    }

    private func failure(_ body: () throws -> Any?, file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        do {
            let value = try body()
            XCTFail("no error; got \(String(describing: value))", file: file, line: line)
            return nil
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput, file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: Reading

    func testReadsTypedMembersOfEachElement() throws {
        let items = try document().elements()
        XCTAssertEqual(items.count, 4)
        XCTAssertEqual(try items[0].string("description"), "one")
        XCTAssertEqual(try items[0].int("id"), 1)
        XCTAssertEqual(try items[0].double("urgency"), 1.5)
        XCTAssertEqual(try items[1].double("urgency"), 2, "an integer is a number")
        XCTAssertEqual(try items[0].bool("done"), false)
        XCTAssertEqual(try items[0].elements("tags").map { try $0.string() }, ["a", "b"])
        XCTAssertEqual(try items[2].elements("annotations").first?.string("description"), "note")
    }

    func testAbsentAndNullOptionalMembersAreNil() throws {
        let items = try document().elements()
        XCTAssertNil(try items[1].optionalString("due"), "null")
        XCTAssertNil(try items[0].optionalString("due"), "absent")
        XCTAssertNil(try items[0].optionalInt("missing"))
        XCTAssertNil(try items[0].optionalDouble("missing"))
        XCTAssertNil(try items[0].optionalBool("missing"))
        XCTAssertEqual(try items[1].optionalElements("tags").count, 0)
        XCTAssertNil(try items[1].member("due"))
        XCTAssertEqual(try items[0].optionalInt("id"), 1)
    }

    func testMembersKeepOrderAndPaths() throws {
        let first = try document().elements()[0]
        let members = try first.members()
        XCTAssertEqual(members.map(\.key), ["description", "urgency", "id", "tags", "done"])
        XCTAssertEqual(members[3].value.path.description, "$[0].tags")
        XCTAssertEqual(try first.elements("tags")[1].path.description, "$[0].tags[1]")
    }

    // MARK: Errors name the path

    func testWrongTypeNamesThePathInBothLanguages() throws {
        let fourth = try document().elements()[3]
        let error = failure { try fourth.string("description") }
        XCTAssertEqual(error?.message.en, "tasks.json: $[3].description: expected a string, found an integer")
        XCTAssertEqual(error?.message.ko, "tasks.json: $[3].description: 형식이 맞지 않습니다 (예상: 문자열, 실제: 정수)")
        XCTAssertEqual(failure { try fourth.int("id") }?.message.en,
                       "tasks.json: $[3].id: expected an integer, found a string")
        XCTAssertEqual(failure { try fourth.elements("tags") }?.message.en,
                       "tasks.json: $[3].tags: expected an array, found a string")
        XCTAssertEqual(failure { try fourth.bool("done") }?.message.en,
                       "tasks.json: $[3].done: expected true or false, found a string")
    }

    func testOptionalMemberOfTheWrongTypeIsStillAnError() throws {
        let first = try document().elements()[0]
        XCTAssertEqual(failure { try first.optionalString("id") }?.message.en,
                       "tasks.json: $[0].id: expected a string, found an integer")
        XCTAssertEqual(failure { try first.optionalInt("urgency") }?.message.en,
                       "tasks.json: $[0].urgency: expected an integer, found a number")
    }

    func testMissingRequiredMemberNamesItsPath() throws {
        let second = try document().elements()[1]
        let error = failure { try second.string("due") }
        XCTAssertEqual(error?.message.en, "tasks.json: $[1].due: missing; expected a string")
        XCTAssertEqual(error?.message.ko, "tasks.json: $[1].due: 값이 없습니다 (예상: 문자열)")
        XCTAssertEqual(failure { try second.int("nothing") }?.message.en,
                       "tasks.json: $[1].nothing: missing; expected an integer")
    }

    func testTopLevelOfTheWrongShape() throws {
        let object = try JSONReader(parsing: Array("{\"a\": 1}".utf8), source: "x.json")
        XCTAssertEqual(failure { try object.elements() }?.message.en, "x.json: $: expected an array, found an object")
        let array = try JSONReader(parsing: Array("[1]".utf8))
        XCTAssertEqual(failure { try array.member("a") }?.message.en, "$: expected an object, found an array")
        XCTAssertEqual(failure { try array.elements()[0].string("a") }?.message.en,
                       "$[0]: expected an object, found an integer")
        XCTAssertEqual(failure { try JSONReader(.null).double() }?.message.en, "$: expected a number, found null")
    }

    func testSyntaxErrorIsABadInputErrorNamingSourceLineAndColumn() {
        let error = failure { try JSONReader(parsing: Array("[\n{\"a\": 1,}\n]".utf8), source: "bad.json") }
        XCTAssertEqual(error?.message.en.hasPrefix("bad.json: invalid JSON at line 2, column "), true,
                       error?.message.en ?? "")
    }

    func testCustomFailureNamesThePath() throws {
        let first = try document().elements()[0]
        let due = try XCTUnwrap(first.member("description"))
        let error = due.failure(en: "not a date: 'one'", ko: "날짜가 아닙니다: 'one'")
        XCTAssertEqual(error.kind, .badInput)
        XCTAssertEqual(error.message.en, "tasks.json: $[0].description: not a date: 'one'")
        XCTAssertEqual(error.message.ko, "tasks.json: $[0].description: 날짜가 아닙니다: 'one'")
    }

    // MARK: Paths

    func testPathsQuoteKeysThatAreNotIdentifiers() {
        let path = JSONPath.root.appending(key: "items").appending(index: 0).appending(key: "due date")
            .appending(key: "9lives").appending(key: "한글").appending(key: "a\"b").appending(key: "_ok1")
        XCTAssertEqual(path.description, #"$.items[0]["due date"]["9lives"]["한글"]["a\"b"]._ok1"#)
        XCTAssertEqual(JSONPath.root.description, "$")
        XCTAssertEqual(JSONPath.root.appending(key: "").description, #"$[""]"#)
    }
}
