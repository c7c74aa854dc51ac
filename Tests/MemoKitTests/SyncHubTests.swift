import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import XCTest

/// The hub's side of sync in process: publishing its own changes in bounded
/// transactions, and pages bounded by count and by bytes.
final class SyncHubTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var workspace: Workspace!

    override func setUp() {
        workspace = Workspace(home: DataHome(path: folder.appending("home")))
    }

    private func add(_ count: Int, text: String? = nil) throws {
        for index in 0..<count {
            if let text {
                _ = try workspace.apply(AddMemo(NewMemo(text: text + " \(index)")), origin: .cli)
            } else {
                _ = try workspace.apply(AddTodo(NewTodo(title: "to-do \(index)")), origin: .cli)
            }
        }
    }

    private func published() throws -> Int {
        try workspace.database().queryFirst("SELECT count(*) FROM sync_items") { $0.int(0) } ?? 0
    }

    func testAFirstPublishOfManyItemsIsManyBoundedCallsEachItemOnce() throws {
        try add(50)
        let hub = try SyncHub(workspace)
        let connection = try workspace.database()
        var calls = 0
        while try !connection.writeTransaction({ try hub.publishLocalChanges(limit: 20) }) {
            calls += 1
            XCTAssertEqual(try published(), calls * 20, "each call publishes its limit")
        }
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(try published(), 50)
        let seqs = try connection.query("SELECT seq FROM sync_items ORDER BY seq") { $0.int64(0) }
        XCTAssertEqual(Set(seqs).count, 50, "each item published once")
        XCTAssertTrue(try connection.writeTransaction { try hub.publishLocalChanges(limit: 20) }, "nothing left")

        // A later change is published alone, even when earlier log entries
        // name items published already.
        _ = try workspace.apply(EditTodo(id: 3, TodoChanges(title: "changed")), origin: .cli)
        XCTAssertTrue(try connection.writeTransaction { try hub.publishLocalChanges(limit: 1) })
        let page = JSONReader(try hub.pull(after: seqs.last!, limit: 100))
        let changes = try page.member("changes")!.elements()
        XCTAssertEqual(try changes.map { try $0.member("values")!.string("title") }, ["changed"])
    }

    func testAPullPageStopsAfterItsBytesAsWellAsItsCount() throws {
        let long = String(repeating: "긴 메모 ", count: 180_000)  // about 2 MB each: longer than the API takes
        try add(6, text: long)
        let hub = try SyncHub(workspace)
        _ = try (try workspace.database()).writeTransaction { try hub.publishLocalChanges() }
        let first = JSONReader(try hub.pull(after: 0, limit: 2_000, counting: true))
        let count = try first.member("changes")!.elements().count
        XCTAssertLessThan(count, 6, "a page of long memos stops early")
        XCTAssertGreaterThanOrEqual(count, 1)
        XCTAssertEqual(try first.bool("more"), true)
        XCTAssertEqual(try first.int("remaining"), Int64(6 - count), "what comes after the page, for a progress bar")
        let second = JSONReader(try hub.pull(after: try first.int("cursor"), limit: 2_000))
        XCTAssertEqual(count + (try second.member("changes")!.elements().count), 6, "the next page goes on")
        XCTAssertEqual(try second.bool("more"), false)
    }
}
