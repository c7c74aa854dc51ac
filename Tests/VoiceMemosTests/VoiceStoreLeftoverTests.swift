import Foundation
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreLeftoverTests: XCTestCase {
    private func makeFile(_ path: String, ageSeconds: TimeInterval) {
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -ageSeconds)],
                                               ofItemAtPath: path)
    }

    func testRemovesAbandonedTemporariesAndFinalNamesWithoutRows() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let voice = harness.store.directory
        makeFile(voice + "/.import-0123456789abcdef.part", ageSeconds: 60)
        makeFile(voice + "/7-0123456789abcdef0123456789abcdef.wav", ageSeconds: 0)
        let removed = try harness.reopenedStore().removeLeftovers()
        XCTAssertEqual(removed.sorted(), [".import-0123456789abcdef.part", "7-0123456789abcdef0123456789abcdef.wav"])
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
    }

    func testRemovesAnUnlockedTemporaryAtOnceAndKeepsLockedOnesAndFilesItDidNotName() throws {
        let harness = try StoreHarness()
        _ = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let voice = harness.store.directory
        // Just made, but no one holds it: its writer is gone.
        makeFile(voice + "/.record-00000000000000aa.part", ageSeconds: 0)
        makeFile(voice + "/notes.txt", ageSeconds: 60)
        // A year old, but locked: its writer is alive.
        let busy = voice + "/.import-00000000000000bb.part"
        makeFile(busy, ageSeconds: 365 * 86400)
        let descriptor = open(busy, O_RDONLY)
        defer { close(descriptor) }
        // Another open file description holds the lock: as another process would.
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        XCTAssertEqual(try harness.reopenedStore().removeLeftovers(), [".record-00000000000000aa.part"])
        XCTAssertEqual(harness.libraryFiles.count, 3)
        XCTAssertTrue(harness.libraryFiles.contains(".import-00000000000000bb.part"))
    }

    func testAFailedInsertLeavesNeitherRowNorFile() throws {
        let harness = try StoreHarness()
        // A trigger that fails the insert's final step stands in for a failing commit.
        try harness.connection.executeScript("""
            CREATE TRIGGER refuse AFTER UPDATE OF file_name ON voice_memos BEGIN SELECT RAISE(ABORT, 'no'); END;
            """)
        XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path("beep.mp3")))
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(harness.libraryFiles, [])
    }

    func testVerifyReportsAFileMemoappDidNotWriteAndTheSweepLeavesIt() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let voice = harness.store.directory
        makeFile(voice + "/stray.wav", ageSeconds: 60)
        try FileManager.default.createDirectory(atPath: voice + "/.undo", withIntermediateDirectories: true)
        let problems = try harness.reopenedStore().verify()
        XCTAssertEqual(problems.map(\.fileName), ["stray.wav"], "the undo history's folder is memoapp's own")
        XCTAssertEqual(problems.first?.kind, .orphanFile)
        XCTAssertTrue(problems.first?.message.en.contains("a file memoapp did not write") ?? false)
        XCTAssertEqual(try harness.reopenedStore().removeLeftovers(), [])
        XCTAssertEqual(Set(harness.libraryFiles), [memo.fileName, "stray.wav", ".undo"])
    }
}
