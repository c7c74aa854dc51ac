import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import Timers
import XCTest

/// Changes as values through `Workspace.apply`: each one a step of the undo
/// history, made through a named front end, giving back the stored items
/// with their new revisions; an older step undone only when no later one
/// touched its items.
final class ItemChangeTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var workspace: Workspace!

    override func setUp() {
        workspace = Workspace(home: DataHome(path: folder.appending("home")))
    }

    func testAChangeIsOneStepSayingWhereItCameFromAndGivesTheStoredItemBack() throws {
        let added = try workspace.apply(AddTodo(NewTodo(title: "write the report")), origin: .web)
        XCTAssertGreaterThan(added.rev, 0)
        XCTAssertEqual(try workspace.todoStore().todo(id: added.id), added, "the item as stored, rev and all")
        let edited = try workspace.apply(EditTodo(id: added.id, TodoChanges(title: "write it"),
                                                  tags: TagChanges(replacement: ["work", "q4"])), origin: .api)
        XCTAssertEqual(edited.tags, ["work", "q4"])
        XCTAssertGreaterThan(edited.rev, added.rev)
        let steps = try workspace.undoHistory().steps()
        XCTAssertEqual(steps.map(\.origin), [.api, .web])
        XCTAssertEqual(steps.map(\.description), ["todo edit \(added.id)", "todo add “write the report”"])
    }

    func testAChangeThatChangesNothingLeavesNoStepAndNoNewRev() throws {
        let memo = try workspace.apply(AddMemo(NewMemo(text: "pinned", isPinned: true)), origin: .cli)
        let (again, step) = try workspace.applyNamingStep(PinMemo(id: memo.id, isPinned: true), origin: .cli)
        XCTAssertNil(step)
        XCTAssertEqual(again.rev, memo.rev)
        XCTAssertEqual(try workspace.undoHistory().steps().count, 1)
    }

    func testAFailedChangeChangesNothing() throws {
        let todo = try workspace.apply(AddTodo(NewTodo(title: "one")), origin: .cli)
        XCTAssertThrowsError(try workspace.apply(FinishTodos(ids: [todo.id, 99]), origin: .cli)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .notFound)
        }
        XCTAssertFalse(try workspace.todoStore().todo(id: todo.id).isDone)
        XCTAssertEqual(try workspace.undoHistory().steps().count, 1)
        XCTAssertEqual(try Revisions.newest(in: workspace.database()), todo.rev, "no revision taken")
    }

    func testAnOlderStepIsUndoneOnlyWhenNoLaterStepTouchedItsItems() throws {
        let one = try workspace.apply(AddTodo(NewTodo(title: "one")), origin: .cli)
        let two = try workspace.apply(AddTodo(NewTodo(title: "two")), origin: .cli)
        let renameOne = try workspace.applyNamingStep(EditTodo(id: one.id, TodoChanges(title: "one!")), origin: .web).step
        let renameTwo = try workspace.applyNamingStep(EditTodo(id: two.id, TodoChanges(title: "two!")), origin: .web).step
        _ = try workspace.apply(FinishTodos(ids: [one.id]), origin: .api)
        let history = try workspace.undoHistory()

        XCTAssertThrowsError(try history.undo(step: try XCTUnwrap(renameOne))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .invalidState)
            XCTAssertTrue("\(error)".contains("todo done \(one.id)"), "\(error)")
        }
        XCTAssertEqual(try workspace.todoStore().todo(id: one.id).title, "one!", "nothing changed")
        XCTAssertEqual(try history.undo(step: try XCTUnwrap(renameTwo)).description, "todo edit \(two.id)")
        XCTAssertEqual(try workspace.todoStore().todo(id: two.id).title, "two")
        XCTAssertTrue(try workspace.todoStore().todo(id: one.id).isDone, "the later step stays")
        XCTAssertThrowsError(try history.undo(step: try XCTUnwrap(renameTwo))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .notFound)
        }
        // Newest first, the newest is then undone as ever, and the older
        // rename with it out of the way.
        XCTAssertEqual(try history.undo().description, "todo done \(one.id)")
        XCTAssertEqual(try history.undo(step: try XCTUnwrap(renameOne)).origin, .web)
        XCTAssertEqual(try workspace.todoStore().todo(id: one.id).title, "one")
    }

    func testATimersActionsAreStepsAndTheirLapsAreChangesOfTheTimer() throws {
        let started = try workspace.apply(StartTimer(duration: nil, label: "laps"), origin: .cli).timer
        let lapped = try workspace.apply(ActOnTimer(.lap, id: started.id), origin: .cli).timer
        XCTAssertEqual(lapped.laps.count, 1)
        XCTAssertGreaterThan(lapped.rev, started.rev, "a lap is a change of its timer")
        XCTAssertEqual(try workspace.timerStore().snapshot(ofTimer: started.id).timer.rev, lapped.rev)
        try workspace.undoHistory().undo()
        let undone = try workspace.timerStore().snapshot(ofTimer: started.id).timer
        XCTAssertEqual(undone.laps.count, 0)
        XCTAssertGreaterThan(undone.rev, lapped.rev, "an undo is a change too")
    }

    func testRevisionsGrowWithEveryWriterAndAreNeverShared() throws {
        let todo = try workspace.apply(AddTodo(NewTodo(title: "a")), origin: .cli)
        let memo = try workspace.apply(AddMemo(NewMemo(text: "b")), origin: .cli)
        XCTAssertEqual(memo.rev, todo.rev + 1, "one counter for every kind of item")
        // A write outside every store (a tool writing by hand) is counted too.
        let database = try workspace.database()
        try database.execute("UPDATE todos SET title = 'by hand' WHERE id = ?", todo.id)
        let byHand = try workspace.todoStore().todo(id: todo.id)
        XCTAssertEqual(byHand.rev, memo.rev + 1)
        // A write of a new revision is the revision being written, no change
        // of its own: it logs nothing (else each change would log twice).
        let logged = try database.queryFirst("SELECT count(*) FROM item_changes") { $0.int(0) }
        try database.execute("UPDATE todos SET rev = rev + 1 WHERE id = ?", todo.id)
        XCTAssertEqual(try database.queryFirst("SELECT count(*) FROM item_changes") { $0.int(0) }, logged)
        XCTAssertEqual(try Revisions.newest(in: database), byHand.rev)
    }
}
