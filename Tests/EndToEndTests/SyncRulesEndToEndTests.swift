import Foundation
import TestSupport
import XCTest

/// The merge rules of docs/sync.md, each pair of concurrent changes made on
/// two devices and synced in both orders: what stays is the same whichever
/// device reaches the hub first, and nothing either wrote is lost silently.
final class SyncRulesEndToEndTests: XCTestCase {
    /// Two devices holding one synced to-do and one synced memo.
    private func twoDevicesSharing(memoText: String = "one\ntwo\nthree\n") throws -> SyncHomes {
        let homes = try SyncHomes(devices: 2)
        XCTAssertEqual(homes.devices[0].run("todo", "add", "shared", "--tag", "base").status, 0)
        XCTAssertEqual(homes.devices[0].run("memo", "add", memoText, "--tag", "base").status, 0)
        homes.syncAll()
        return homes
    }

    private func todoID(_ memoapp: Memoapp, titled title: String) -> String {
        let todo = SyncHomes.todos(memoapp).first { $0["title"] as? String == title }
        return "\(todo?["id"] as? Int ?? 0)"
    }

    private func memoID(_ memoapp: Memoapp) -> String {
        let memo = SyncHomes.memos(memoapp).first { ($0["conflict_of"] as? String) == nil }
        return "\(memo?["id"] as? Int ?? 0)"
    }

    /// Runs `first` on device 0 and `second` on device 1, then syncs them in
    /// `order`, then all; returns the homes.
    private func concurrently(order: [Int], memoText: String = "one\ntwo\nthree\n",
                              _ first: (Memoapp) -> Void, _ second: (Memoapp) -> Void) throws -> SyncHomes {
        let homes = try twoDevicesSharing(memoText: memoText)
        first(homes.devices[0])
        second(homes.devices[1])
        for index in order { homes.sync(index) }
        homes.syncAll()
        homes.assertConverged("after syncing in the order \(order)")
        return homes
    }

    func testDifferentFieldsOfOneItemBothStay() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("todo", "edit", self.todoID(a, titled: "shared"), "--title", "renamed on a").status, 0)
            }, { b in
                XCTAssertEqual(b.run("todo", "edit", self.todoID(b, titled: "shared"), "--due", "2031-02-03",
                                     "--priority", "low").status, 0)
            })
            let todo = try XCTUnwrap(SyncHomes.todos(homes.hub).first)
            XCTAssertEqual(todo["title"] as? String, "renamed on a", "order \(order)")
            XCTAssertEqual(todo["priority"] as? String, "low", "order \(order)")
            XCTAssertEqual((todo["due_at"] as? String)?.prefix(10), "2031-02-03", "order \(order)")
        }
    }

    func testOneFieldChangedOnBothKeepsTheLaterChange() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("todo", "edit", self.todoID(a, titled: "shared"), "--title", "earlier").status, 0)
            }, { b in
                XCTAssertEqual(b.run("todo", "edit", self.todoID(b, titled: "shared"), "--title", "later").status, 0)
            })
            XCTAssertEqual(SyncHomes.todos(homes.hub).first?["title"] as? String, "later", "order \(order)")
        }
    }

    /// A device a day fast does not win forever: the hub clamps its stamps
    /// to its own clock, so an edit made after it on a device that had not
    /// seen it still wins.
    func testADeviceClockADayFastDoesNotWinForever() throws {
        let homes = try twoDevicesSharing()
        let (a, b) = (homes.devices[0], homes.devices[1])
        let fast = try SyncHomes.shiftedClock(by: 86_400)
        XCTAssertEqual(a.run(["todo", "edit", todoID(a, titled: "shared"), "--title", "from the fast clock"],
                             environment: fast).status, 0)
        homes.sync(0, environment: fast)
        // b has not seen it: a concurrent edit, made later in fact.
        XCTAssertEqual(b.run("todo", "edit", todoID(b, titled: "shared"), "--title", "later, on b").status, 0)
        homes.sync(1)
        homes.sync(0, environment: fast)
        XCTAssertEqual(SyncHomes.todos(homes.hub).first?["title"] as? String, "later, on b")
        XCTAssertEqual(SyncHomes.todos(a).first?["title"] as? String, "later, on b")
    }

    /// A device a day slow does not lose forever: once it has seen the
    /// others' changes, its own are stamped after them.
    func testADeviceClockADaySlowDoesNotLoseForever() throws {
        let homes = try twoDevicesSharing()
        let (a, b) = (homes.devices[0], homes.devices[1])
        let slow = try SyncHomes.shiftedClock(by: -86_400)
        XCTAssertEqual(b.run("todo", "edit", todoID(b, titled: "shared"), "--title", "on b").status, 0)
        homes.sync(1)
        homes.sync(0, environment: slow)
        XCTAssertEqual(a.run(["todo", "edit", todoID(a, titled: "on b"), "--title", "on the slow clock, after"],
                             environment: slow).status, 0)
        homes.sync(0, environment: slow)
        homes.sync(1)
        XCTAssertEqual(SyncHomes.todos(homes.hub).first?["title"] as? String, "on the slow clock, after")
        XCTAssertEqual(SyncHomes.todos(b).first?["title"] as? String, "on the slow clock, after")
    }

    func testTagAdditionsAndRemovalsMerge() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("todo", "edit", self.todoID(a, titled: "shared"), "--tag", "fromA", "--untag", "base").status, 0)
            }, { b in
                XCTAssertEqual(b.run("todo", "edit", self.todoID(b, titled: "shared"), "--tag", "fromB").status, 0)
            })
            let tags = SyncHomes.todos(homes.hub).first?["tags"] as? [String] ?? []
            XCTAssertEqual(Set(tags), ["fromA", "fromB"], "order \(order): both additions, a's removal")
        }
    }

    func testMemoEditsOnDifferentLinesMerge() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("memo", "edit", self.memoID(a), "--text", "ONE by a\ntwo\nthree\n").status, 0)
            }, { b in
                XCTAssertEqual(b.run("memo", "edit", self.memoID(b), "--text", "one\ntwo\nthree\nfour by b\n").status, 0)
            })
            let memos = SyncHomes.memos(homes.hub)
            XCTAssertEqual(memos.count, 1, "no conflict copy: order \(order)")
            XCTAssertEqual(memos.first?["text"] as? String, "ONE by a\ntwo\nthree\nfour by b\n", "order \(order)")
        }
    }

    func testMemoEditsOfTheSameLinesKeepTheHubsTextAndACopy() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("memo", "edit", self.memoID(a), "--text", "one\nTWO by a\nthree\n").status, 0)
            }, { b in
                XCTAssertEqual(b.run("memo", "edit", self.memoID(b), "--text", "one\nTWO by b\nthree\n").status, 0)
            })
            let memos = SyncHomes.memos(homes.hub)
            XCTAssertEqual(memos.count, 2, "order \(order): \(memos)")
            let original = try XCTUnwrap(memos.first { $0["conflict_of"] is NSNull })
            let copy = try XCTUnwrap(memos.first { $0["conflict_of"] is String })
            let first = order[0] == 0 ? "a" : "b", second = order[0] == 0 ? "b" : "a"
            XCTAssertEqual(original["text"] as? String, "one\nTWO by \(first)\nthree\n", "the hub's text stays")
            XCTAssertEqual(copy["text"] as? String, "one\nTWO by \(second)\nthree\n", "the later device's text is kept")
            XCTAssertEqual(copy["conflict_of"] as? String, original["uid"] as? String)
            XCTAssertTrue((copy["tags"] as? [String] ?? []).contains("conflict"))
        }
    }

    func testEqualTextsAreNoConflict() throws {
        let homes = try concurrently(order: [0, 1], { a in
            XCTAssertEqual(a.run("memo", "edit", self.memoID(a), "--text", "same on both\n").status, 0)
        }, { b in
            XCTAssertEqual(b.run("memo", "edit", self.memoID(b), "--text", "same on both\n").status, 0)
        })
        XCTAssertEqual(SyncHomes.memos(homes.hub).map { $0["text"] as? String }, ["same on both\n"])
    }

    func testAnEditBeatsARemovalInEitherOrder() throws {
        for order in [[0, 1], [1, 0]] {
            let homes = try concurrently(order: order, { a in
                XCTAssertEqual(a.run("todo", "rm", self.todoID(a, titled: "shared")).status, 0)
                XCTAssertEqual(a.run("memo", "rm", self.memoID(a)).status, 0)
            }, { b in
                XCTAssertEqual(b.run("todo", "edit", self.todoID(b, titled: "shared"), "--title", "edited").status, 0)
                XCTAssertEqual(b.run("memo", "edit", self.memoID(b), "--text", "edited text\n").status, 0)
            })
            XCTAssertEqual(SyncHomes.todos(homes.hub).map { $0["title"] as? String }, ["edited"], "order \(order)")
            XCTAssertEqual(SyncHomes.memos(homes.hub).map { $0["text"] as? String }, ["edited text\n"], "order \(order)")
        }
    }

    func testUndoOnADeviceIsAChangeLikeAnyOther() throws {
        let homes = try twoDevicesSharing()
        let (a, b) = (homes.devices[0], homes.devices[1])
        XCTAssertEqual(a.run("todo", "rm", todoID(a, titled: "shared")).status, 0)
        homes.syncAll()
        XCTAssertTrue(SyncHomes.todos(b).isEmpty)
        XCTAssertEqual(a.run("undo").status, 0, "the removal undone on a")
        homes.syncAll()
        homes.assertConverged()
        XCTAssertEqual(SyncHomes.todos(b).map { $0["title"] as? String }, ["shared"], "back everywhere, the same uid")
    }
}

/// A conflict copy keeps its tie to its original through export and import.
final class SyncConflictCopyExportEndToEndTests: XCTestCase {
    func testExportAndImportKeepConflictOf() throws {
        let homes = try SyncHomes(devices: 2)
        let (a, b) = (homes.devices[0], homes.devices[1])
        XCTAssertEqual(a.run("memo", "add", "one\ntwo\nthree\n").status, 0)
        homes.syncAll()
        XCTAssertEqual(a.run("memo", "edit", "1", "--text", "one\nA\nthree\n").status, 0)
        XCTAssertEqual(b.run("memo", "edit", "1", "--text", "one\nB\nthree\n").status, 0)
        homes.sync(0)
        homes.sync(1)
        let export = homes.folder.appending("export.json")
        XCTAssertEqual(homes.hub.run("export", "-o", export).status, 0)
        let fresh = Memoapp(home: homes.folder.appending("fresh"))
        fresh.onboard()
        let imported = fresh.run("import", export)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let copies = SyncHomes.memos(fresh).filter { $0["conflict_of"] is String }
        XCTAssertEqual(copies.count, 1)
        let original = SyncHomes.memos(fresh).first { $0["conflict_of"] is NSNull }
        XCTAssertEqual(copies.first?["conflict_of"] as? String, original?["uid"] as? String)
    }
}
