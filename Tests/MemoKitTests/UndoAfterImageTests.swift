import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import XCTest

/// An undo refuses to overwrite what a writer outside the history (the HTTP
/// API, a tool writing by hand) changed after the step: the rows a step left
/// are imaged when it ends and compared before anything is reverted.
final class UndoAfterImageTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var workspace: Workspace!
    private var history: UndoHistory!
    private var todos: TodoStore!

    override func setUpWithError() throws {
        workspace = Workspace(home: DataHome(path: folder.appending("home")), clock: SystemWallClock())
        history = try workspace.undoHistory()
        todos = try workspace.todoStore()
    }

    override func tearDown() {
        todos = nil
        history = nil
        workspace = nil
    }

    func testAnEditChangedSinceOutsideTheHistoryIsNotOverwritten() throws {
        let todo = try todos.add(NewTodo(title: "first", note: nil, priority: nil, tags: [], due: nil))
        _ = try history.record("todo edit") { try todos.edit(id: todo.id, TodoChanges(title: "terminal")) }
        _ = try todos.edit(id: todo.id, TodoChanges(title: "phone"))

        assertRefused(try history.undo())
        XCTAssertEqual(try todos.todo(id: todo.id).title, "phone", "the later change stays")
        XCTAssertEqual(try history.steps().map(\.description), ["todo edit"], "the step stays, to be undone by hand")
    }

    func testAnAddedItemEditedSinceIsNotRemoved() throws {
        let todo = try history.record("todo add") {
            try todos.add(NewTodo(title: "added", note: nil, priority: nil, tags: [], due: nil))
        }
        _ = try todos.markDone(ids: [todo.id])

        assertRefused(try history.undo())
        XCTAssertNotNil(try todos.todo(id: todo.id).doneAt)
    }

    func testATagChangedSinceIsSeen() throws {
        let todo = try todos.add(NewTodo(title: "tagged", note: nil, priority: nil, tags: ["home"], due: nil))
        _ = try history.record("todo edit") { try todos.edit(id: todo.id, TodoChanges(addedTags: ["work"])) }
        // By hand, as a tool would: the tag row alone.
        try workspace.database().execute("DELETE FROM todo_tags WHERE todo_id = ? AND tag = 'work'", todo.id)

        assertRefused(try history.undo())
    }

    func testAMemoChangedSinceIsNotOverwritten() throws {
        let memos = try workspace.memoStore()
        let memo = try memos.add(NewMemo(text: "draft"))
        _ = try history.record("memo edit") { try memos.edit(id: memo.id, text: "terminal text") }
        _ = try memos.edit(id: memo.id, text: "phone text")

        assertRefused(try history.undo())
        XCTAssertEqual(try memos.memo(id: memo.id).text, "phone text")
    }

    func testStepsUndoneInTurnMatchWhatEachLeft() throws {
        let todo = try history.record("add") {
            try todos.add(NewTodo(title: "one", note: "n", priority: .low, tags: ["a"], due: nil))
        }
        _ = try history.record("edit 1") { try todos.edit(id: todo.id, TodoChanges(title: "two", addedTags: ["b"])) }
        _ = try history.record("edit 2") { try todos.edit(id: todo.id, TodoChanges(title: "three", removedTags: ["a"])) }
        _ = try history.record("done") { try todos.markDone(ids: [todo.id]) }

        XCTAssertEqual(try (0..<4).map { _ in try history.undo().description }, ["done", "edit 2", "edit 1", "add"])
        XCTAssertThrowsError(try todos.todo(id: todo.id), "the add undone too")
    }

    func testAChangeSinceThatWasPutBackDoesNotCount() throws {
        let todo = try todos.add(NewTodo(title: "first", note: nil, priority: nil, tags: [], due: nil))
        _ = try history.record("todo edit") { try todos.edit(id: todo.id, TodoChanges(title: "terminal")) }
        let leftAt = try XCTUnwrap(workspace.database().queryFirst("SELECT updated_at FROM todos WHERE id = ?", todo.id) {
            $0.value(0)
        })
        _ = try todos.edit(id: todo.id, TodoChanges(title: "phone"))
        // Every column as the step left it, updated_at included.
        try workspace.database().execute("UPDATE todos SET title = 'terminal', updated_at = ? WHERE id = ?",
                                         arguments: [leftAt, .integer(todo.id)])

        XCTAssertEqual(try history.undo().description, "todo edit")
        XCTAssertEqual(try todos.todo(id: todo.id).title, "first")
    }

    func testAStepTooLargeToImageIsUndoneAsBefore() throws {
        let count = UndoHistory.largestImagedStep + 1
        let first = try history.record("import") {
            try (0..<count).map { try todos.add(NewTodo(title: "item \($0)", note: nil, priority: nil, tags: [], due: nil)) }
        }[0]
        let images = try workspace.database().queryFirst("SELECT count(*) FROM undo_rows WHERE operation = 'after'") {
            $0.int(0)
        }
        XCTAssertEqual(images, 0, "no images for a step of \(count) rows")
        _ = try todos.edit(id: first.id, TodoChanges(title: "edited"))

        XCTAssertEqual(try history.undo().description, "import", "what the import added goes, edited or not")
        XCTAssertEqual(try workspace.database().queryFirst("SELECT count(*) FROM todos") { $0.int(0) }, 0)
    }

    // MARK: - Helpers

    private func assertRefused(_ body: @autoclosure () throws -> UndoStep, file: StaticString = #filePath,
                               line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .invalidState, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains("changed since"), "\(error)", file: file, line: line)
        }
    }
}
