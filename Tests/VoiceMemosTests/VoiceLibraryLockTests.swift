import Foundation
import MemoCore
import TestSupport
@testable import VoiceMemos
import XCTest

/// While a restore holds the library's lock, files without rows are about to
/// be owned: no sweep removes them. Without it, they are leftovers.
final class VoiceLibraryLockTests: XCTestCase {
    func testASweepLeavesFilesWithoutRowsWhileTheLibraryIsLockedAndRemovesThemAfter() throws {
        let harness = try StoreHarness()
        _ = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let directory = harness.store.directory
        let name = "7-" + String(repeating: "a", count: 32) + ".wav"
        let path = directory + "/" + name
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: path))

        let lock = try VoiceLibraryLock.exclusive(in: directory)
        XCTAssertEqual(try harness.reopenedStore().removeLeftovers(), [], "a restore is installing it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNil(VoiceLibraryLock.sharedIfFree(in: directory))
        lock.release()

        XCTAssertNotNil(VoiceLibraryLock.sharedIfFree(in: directory))
        XCTAssertEqual(try harness.reopenedStore().removeLeftovers(), [name], "no one owns it now")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testTwoExclusiveHoldersTakeTurns() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.appending("voice")
        let first = try VoiceLibraryLock.exclusive(in: directory)
        let acquired = Locked(false)
        let waiter = Thread {
            let second = try? VoiceLibraryLock.exclusive(in: directory)
            acquired.withValue { $0 = second != nil }
            second?.release()
        }
        waiter.start()
        // The waiter cannot get it while the first holds it, however long it tries.
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertFalse(acquired.current)
        first.release()
        let deadline = Date().addingTimeInterval(10)
        while !acquired.current && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(acquired.current)
    }
}
