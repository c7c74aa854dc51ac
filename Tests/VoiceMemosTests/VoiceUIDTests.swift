import Foundation
import MemoCore
import SQLite
import TestSupport
import XCTest
@testable import VoiceMemos

/// Voice memo uids: set on import and recording, unique, kept by rename and
/// trim, and the one an importer passes is the one stored.
final class VoiceUIDTests: XCTestCase {
    func testImportedAndRecordedMemosGetDifferentWellFormedUIDs() throws {
        let harness = try StoreHarness()
        let first = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let second = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        XCTAssertTrue(UUID4.isWellFormed(first.uid))
        XCTAssertTrue(UUID4.isWellFormed(second.uid))
        XCTAssertNotEqual(first.uid, second.uid)
        XCTAssertEqual(try harness.reopenedStore().memos().map(\.uid), [first.uid, second.uid])
    }

    func testTheUIDSurvivesRenameAndTrim() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        XCTAssertEqual(try harness.store.rename(id: memo.id, title: "new").uid, memo.uid)
        XCTAssertEqual(try harness.store.trim(id: memo.id, start: 0, end: 0.5).uid, memo.uid)
    }

    func testAGivenUIDIsStoredAndADuplicateIsRefusedLeavingNoFile() throws {
        let harness = try StoreHarness()
        let uid = "0f0e0d0c-0b0a-4908-8706-050403020100"
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"), options: ImportOptions(uid: uid))
        XCTAssertEqual(memo.uid, uid)
        XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path("beep.mp3"),
                                                          options: ImportOptions(uid: uid))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .duplicate)
            XCTAssertEqual((error as? MemoError)?.message.en, "a voice memo with uid \(uid) already exists")
        }
        XCTAssertEqual(harness.rowCount, 1)
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
    }

    func testAMalformedUIDIsBadInputBeforeAnythingIsRead() throws {
        let harness = try StoreHarness()
        XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path("beep.mp3"),
                                                          options: ImportOptions(uid: "BEEP"))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .badInput)
        }
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(harness.libraryFiles, [])
    }

    func testTheMigrationGivesExistingMemosUIDs() throws {
        let folder = TemporaryDirectory()
        let connection = try Connection(path: folder.appending("memoapp.db"))
        var before = Migrator()
        before.register(Array(VoiceStore.migrations.prefix(1)))
        try before.apply(to: connection)
        for index in 1...5 {
            try connection.execute("""
                INSERT INTO voice_memos (title, original_name, file_name, container, encoding, format_code, sample_rate,
                    channels, frames, duration, size, peak_level, checksum, imported_at)
                VALUES ('t', 'o', ?, 'WAV', 'PCM 16-bit', 65538, 8000, 1, 8, 0.001, 60, 0.5, 'c', 0)
                """, "f\(index)")
        }
        var after = Migrator()
        after.register(VoiceStore.migrations)
        try after.apply(to: connection)
        let uids = try connection.query("SELECT uid FROM voice_memos") { $0.optionalString(0) }
        XCTAssertEqual(Set(uids.compactMap { $0 }.filter(UUID4.isWellFormed)).count, 5)
    }
}
