import Foundation
import TestSupport
import XCTest

/// Every item's --json output carries its `uid`, the same every time it is
/// read and different from item to item.
final class UIDEndToEndTests: XCTestCase {
    func testEveryKindOfItemShowsItsUIDInJSON() {
        let home = VoiceHome()
        let app = home.app
        let todo = app.run("todo", "add", "milk", "--json").object()
        let memo = app.run("memo", "add", "hello", "--json").object()
        let timer = app.run("timer", "start", "5m", "--json").object()
        let voice = home.importFile(VoiceHome.fixture("beep.mp3"))
        let uids = [todo, memo, timer, voice].map { $0["uid"] as? String ?? "" }
        for uid in uids {
            XCTAssertNotNil(UUID(uuidString: uid), uid)
            XCTAssertEqual(uid, uid.lowercased())
        }
        XCTAssertEqual(Set(uids).count, 4)
        XCTAssertEqual(app.run("todo", "show", "1", "--json").object()["uid"] as? String, uids[0])
        XCTAssertEqual(app.run("todo", "list", "--json").array().first?["uid"] as? String, uids[0])
        XCTAssertEqual(app.run("memo", "show", "1", "--json").object()["uid"] as? String, uids[1])
        XCTAssertEqual(app.run("memo", "list", "--json").array().first?["uid"] as? String, uids[1])
        XCTAssertEqual(app.run("timer", "status", "1", "--json").object()["uid"] as? String, uids[2])
        XCTAssertEqual(home.memos().first?["uid"] as? String, uids[3])
    }

    func testARowInsertedByHandShowsNoUIDUntilAnExportGivesItOne() throws {
        let home = VoiceHome()
        let app = home.app
        app.run("todo", "add", "through memoapp")
        memoappSQL(app.home + "/memoapp.db", "INSERT INTO todos (title, created_at, updated_at) VALUES ('by hand', 0, 0)")
        let before = app.run("todo", "list", "--json").array()
        XCTAssertTrue(before.contains { $0["title"] as? String == "by hand" && $0["uid"] is NSNull }, "\(before)")
        let exported = app.run("export")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let uids = (exported.object()["todos"] as? [[String: Any]])?.compactMap { $0["uid"] as? String } ?? []
        XCTAssertEqual(uids.count, 2)
        XCTAssertTrue(uids.allSatisfy { UUID(uuidString: $0) != nil }, "\(uids)")
        let after = app.run("todo", "list", "--json").array().compactMap { $0["uid"] as? String }
        XCTAssertEqual(Set(after), Set(uids), "the export stored the uid it gave")
    }
}
