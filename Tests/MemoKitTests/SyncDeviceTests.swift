import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import XCTest

/// A device's side of sync in process (`InProcessHub` is the hub).
final class SyncDeviceTests: XCTestCase {
    private let folder = TemporaryDirectory()

    func testAnEditChangedBackDoesNotHoldBackTheHubsChanges() throws {
        let hub = Workspace(home: DataHome(path: folder.appending("hub")))
        let laptop = Workspace(home: DataHome(path: folder.appending("laptop")))
        try SyncRun.configure(laptop, server: "http://hub.invalid", token: "t")
        let transport = InProcessHub(workspace: hub)
        let added = try hub.apply(AddTodo(NewTodo(title: "milk")), origin: .cli)
        _ = try SyncRun(laptop, transport: transport).run(force: false)
        let here = try XCTUnwrap(try laptop.todoStore().todos(matching: TodoQuery()).first)

        // Changed and changed back: nothing to send, and nothing held back.
        _ = try laptop.apply(EditTodo(id: here.id, TodoChanges(title: "oat milk")), origin: .cli)
        _ = try laptop.apply(EditTodo(id: here.id, TodoChanges(title: "milk")), origin: .cli)
        _ = try hub.apply(EditTodo(id: added.id, TodoChanges(note: .set("two litres"))), origin: .cli)
        let report = try SyncRun(laptop, transport: transport).run(force: false)
        XCTAssertEqual(report.pushed, 0)
        XCTAssertEqual(try laptop.todoStore().todo(id: here.id).note, "two litres")
        XCTAssertEqual(try SyncRun.status(laptop)?.waiting, 0)
    }
}
