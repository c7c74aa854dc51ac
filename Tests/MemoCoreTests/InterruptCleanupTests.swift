import Foundation
import MemoCore
import TestSupport
import XCTest

/// The table of temporaries that Ctrl-C, SIGTERM and SIGHUP remove (the
/// signal itself is tested on the binary: InterruptCleanupEndToEndTests).
final class InterruptCleanupTests: XCTestCase {
    func testATemporaryIsRegisteredWhileItIsOne() throws {
        let folder = TemporaryDirectory()
        let renamed = try TemporaryFile(in: folder.path, purpose: "export")
        let discarded = try TemporaryFile(in: folder.path, purpose: "export")
        XCTAssertTrue(InterruptCleanup.registeredPaths.contains(renamed.path))
        XCTAssertTrue(InterruptCleanup.registeredPaths.contains(discarded.path))

        XCTAssertEqual(rename(renamed.path, folder.appending("kept")), 0)
        renamed.closeDescriptor()
        discarded.discard()
        XCTAssertFalse(InterruptCleanup.registeredPaths.contains(renamed.path), "renamed into place: no temporary")
        XCTAssertFalse(InterruptCleanup.registeredPaths.contains(discarded.path), "removed already")
    }

    func testRemovingUnlinksWhatIsRegisteredAndNothingElse() throws {
        let folder = TemporaryDirectory()
        let registered = folder.appending(".export-0123456789abcdef.part")
        let other = folder.appending("memos.json")
        for path in [registered, other] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        let slot = try XCTUnwrap(InterruptCleanup.register(registered))
        defer { InterruptCleanup.unregister(slot) }

        InterruptCleanup.removeRegisteredFiles()
        XCTAssertFalse(FileManager.default.fileExists(atPath: registered))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other))
    }

    func testAnUnregisteredPathIsLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending(".import-0123456789abcdef.part")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let slot = try XCTUnwrap(InterruptCleanup.register(path))
        InterruptCleanup.unregister(slot)

        InterruptCleanup.removeRegisteredFiles()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testPathsThatDoNotFitAreRefusedNotCut() {
        XCTAssertNil(InterruptCleanup.register("/tmp/" + String(repeating: "a", count: Int(PATH_MAX))),
                     "a cut path could name another file")
        XCTAssertNil(InterruptCleanup.register("/tmp/a\u{0}b"), "a NUL would cut it too")
        XCTAssertFalse(InterruptCleanup.registeredPaths.contains { $0.hasPrefix("/tmp/aaaa") || $0 == "/tmp/a" })
    }

    func testAFullTableRegistersNoMoreAndFreesItsSlots() throws {
        var slots: [Int] = []
        for index in 0..<1_000 {
            guard let slot = InterruptCleanup.register("/nonexistent/memoapp-slot-\(index)") else { break }
            slots.append(slot)
        }
        XCTAssertLessThan(slots.count, 1_000, "the table is bounded")
        XCTAssertEqual(Set(slots).count, slots.count, "each path has a slot of its own")
        XCTAssertGreaterThanOrEqual(slots.count, 16)
        for slot in slots { InterruptCleanup.unregister(slot) }
        let again = try XCTUnwrap(InterruptCleanup.register("/nonexistent/memoapp-slot-again"))
        InterruptCleanup.unregister(again)
    }
}
