import MemoAPI
import MemoCore
import Notes
import XCTest

/// The to-do document is written two ways from one statement of its shape:
/// as a `JSON` value (the command line, the event feed) and straight into
/// bytes (the server's answers). Both must be exactly the bytes the document
/// was before the bytes writer existed.
final class TodoEncoderTests: XCTestCase {
    let now = Timestamp(secondsSince1970: 1_795_958_644.25)  // 2026-11-29T13:24:04.250Z
    let calendar = FixedOffsetCalendar(offsetSeconds: 9 * 3600)

    func testTheBytesAreTheDocumentAsItWasBuiltBefore() {
        let encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
        for todo in variedTodos() {
            let legacy = legacyDocument(todo, encoder)
            XCTAssertEqual(String(decoding: encoder.json(todo).serializedBytes, as: UTF8.self),
                           String(decoding: legacy.serializedBytes, as: UTF8.self))
            XCTAssertEqual(encoder.serialized([todo]), JSON.array([legacy]).serializedBytes)
            XCTAssertEqual(encoder.json(todo), legacy)
        }
    }

    func testAListIsTheArrayOfItsItems() {
        let encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
        let todos = variedTodos()
        XCTAssertEqual(encoder.serialized(todos), encoder.json(todos).serializedBytes)
        XCTAssertEqual(encoder.serialized(todos), JSON.array(todos.map { legacyDocument($0, encoder) }).serializedBytes)
        XCTAssertEqual(encoder.serialized([]), Array("[]".utf8))
    }

    func testTheDetailAddsTheTimeSpentLast() {
        let encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
        for todo in variedTodos() {
            for spent in [0, 1.5, 12.3456, 86_400.0001] {
                guard case var .object(members) = legacyDocument(todo, encoder) else { return XCTFail("not an object") }
                members.append(("time_spent_seconds", .double((spent * 1000).rounded() / 1000)))
                XCTAssertEqual(encoder.serializedDetail(todo, timeSpent: spent), JSON.object(members).serializedBytes)
                XCTAssertEqual(encoder.detail(todo, timeSpent: spent), JSON.object(members))
            }
        }
    }

    func testOneKnownDocumentByteForByte() {
        let encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
        let todo = Todo(id: 7, uid: "0b6f5e7c-52a4-4c4e-9d0b-6a1f2c3d4e5f", title: "Buy \"milk\"", priority: .high,
                        tags: ["home", "가게"], due: Due(instant: Timestamp(secondsSince1970: 1_795_964_399), hasTime: false),
                        createdAt: Timestamp(secondsSince1970: 1_795_900_000.5),
                        updatedAt: Timestamp(secondsSince1970: 1_795_900_001.75))
        var revised = todo
        revised.rev = 42
        let expected = #"{"id":7,"uid":"0b6f5e7c-52a4-4c4e-9d0b-6a1f2c3d4e5f","rev":42,"title":"Buy \"milk\"","note":null,"#
            + #""priority":"high","tags":["home","가게"],"due_at":"2026-11-29T14:59:59.000Z","due_local":"2026-11-29","#
            + #""due_has_time":false,"remind_at":null,"is_done":false,"is_overdue":false,"is_due_today":true,"#
            + #""done_at":null,"created_at":"2026-11-28T21:06:40.500Z","updated_at":"2026-11-28T21:06:41.750Z","#
            + #""repeat":null}"#
        XCTAssertEqual(String(decoding: encoder.serialized([revised]), as: UTF8.self), "[" + expected + "]")
        XCTAssertEqual(encoder.json(revised).serialized, expected)
    }

    // MARK: - Support

    /// The to-do document exactly as `TodoEncoder.json` built it before it
    /// had a bytes writer: the reference both writers are held to.
    private func legacyDocument(_ todo: Todo, _ encoder: WireFormat.TodoEncoder) -> JSON {
        .object([
            ("id", .int(todo.id)),
            ("uid", .uid(todo.uid)),
            ("rev", .int(todo.rev)),
            ("title", .string(todo.title)),
            ("note", .optional(todo.note)),
            ("priority", .optional(todo.priority?.name)),
            ("tags", .strings(todo.tags)),
            ("due_at", .optional(todo.due?.instant)),
            ("due_local", .optional(todo.due.map(encoder.dueText))),
            ("due_has_time", .bool(todo.due?.hasTime ?? false)),
            ("remind_at", .optional(todo.remindAt)),
            ("is_done", .bool(todo.isDone)),
            ("is_overdue", .bool(todo.isOverdue(at: now))),
            ("is_due_today", .bool(encoder.isDueToday(todo))),
            ("done_at", .optional(todo.doneAt)),
            ("created_at", .time(todo.createdAt)),
            ("updated_at", .time(todo.updatedAt)),
            ("repeat", todo.repeatRule.map(WireFormat.repeatRule) ?? .null),
        ])
    }

    /// To-dos with every field empty and full, hostile and plain text,
    /// times before 1970 and at the ends of the supported range.
    private func variedTodos() -> [Todo] {
        let hostile = "\"quoted\" back\\slash\n\r\t\u{0}\u{1F}\u{7F} \u{2028}\u{2029} 회의 🙂"
        return [
            Todo(id: 1, title: "plain", createdAt: now, updatedAt: now),
            Todo(id: 2, uid: "", title: hostile, note: hostile, priority: .low, tags: [hostile, "b"],
                 due: Due(instant: now.adding(seconds: -60), hasTime: true), createdAt: Timestamp(secondsSince1970: -1.5),
                 updatedAt: Timestamp(secondsSince1970: 0), doneAt: now,
                 repeatRule: RepeatRule(every: 2, unit: .week, from: .done), remindAt: now.adding(seconds: 0.0009)),
            Todo(id: Int64.max, uid: "0b6f5e7c-52a4-4c4e-9d0b-6a1f2c3d4e5f", title: "", priority: .medium,
                 due: Due(instant: now.adding(seconds: 3600), hasTime: false), createdAt: .earliestSupported,
                 updatedAt: .latestSupported, repeatRule: RepeatRule(every: 1, unit: .weekday)),
            Todo(id: 3, title: "overdue", due: Due(instant: Timestamp(secondsSince1970: 951_782_400.123), hasTime: true),
                 createdAt: Timestamp(secondsSince1970: .infinity), updatedAt: Timestamp(secondsSince1970: -.infinity),
                 remindAt: Timestamp(secondsSince1970: 4_102_444_799.999)),
        ]
    }
}
