import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// `importWritten`: audio already written to a temporary in the library
/// folder (an HTTP upload) becomes the memo's file without a second copy.
final class VoiceStoreWrittenImportTests: XCTestCase {
    /// `fixture`'s bytes in a new temporary in `harness`'s library folder.
    private func written(_ fixture: String, in harness: StoreHarness) throws -> TemporaryFile {
        try FileSystem.makeDirectory(harness.store.directory)
        let file = try TemporaryFile(in: harness.store.directory, purpose: "upload")
        let bytes = Fixtures.bytes(fixture)
        try bytes.withUnsafeBytes { try FileSystem.writeAll(file.descriptor, $0.baseAddress!, count: $0.count, path: file.path) }
        return file
    }

    func testTheWrittenFileBecomesTheMemosFileWithWhatAnImportFinds() throws {
        let harness = try StoreHarness()
        let file = try written("chord-stereo-22k.flac", in: harness)
        let memo = try harness.store.importWritten(file, options: ImportOptions(tags: ["call"],
                                                                                originalName: "chord-stereo-22k.flac"))
        XCTAssertEqual(memo.title, "Chord in two channels")
        XCTAssertEqual(memo.originalName, "chord-stereo-22k.flac")
        XCTAssertEqual(memo.tags, ["call"])
        XCTAssertEqual(memo.checksum, "d0f49c7c8d6cdc78e2cfb283814ac6a5")
        XCTAssertEqual(memo.fileName, "1-d0f49c7c8d6cdc78e2cfb283814ac6a5.flac")
        // Renamed, not copied: the temporary is gone and only the memo's file is left.
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: harness.store.path(of: memo))!),
                       Fixtures.bytes("chord-stereo-22k.flac"))
        // The same as importing the fixture from its own path.
        let imported = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"),
                                                    options: ImportOptions(allowDuplicate: true))
        XCTAssertEqual(try harness.store.peaks(id: imported.id).values, try harness.store.peaks(id: memo.id).values)
        XCTAssertEqual(imported.frames, memo.frames)
        XCTAssertEqual(imported.duration, memo.duration)
    }

    func testRefusedAudioLeavesNoRowAndNoFile() throws {
        let harness = try StoreHarness()
        try FileSystem.makeDirectory(harness.store.directory)
        let garbage = try TemporaryFile(in: harness.store.directory, purpose: "upload")
        let text = Array("not audio at all".utf8)
        try text.withUnsafeBytes { try FileSystem.writeAll(garbage.descriptor, $0.baseAddress!, count: $0.count, path: garbage.path) }
        XCTAssertThrowsError(try harness.store.importWritten(garbage)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .badInput, "\(error)")
        }
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(harness.libraryFiles, [])

        let first = try harness.store.importWritten(try written("tone-mono-16k.wav", in: harness))
        XCTAssertThrowsError(try harness.store.importWritten(try written("tone-mono-16k.wav", in: harness))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .duplicate, "\(error)")
        }
        XCTAssertThrowsError(try harness.store.importWritten(try written("tone-mono-16k.wav", in: harness),
                                                             options: ImportOptions(tags: [" "]))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .usage, "\(error)")
        }
        XCTAssertEqual(harness.rowCount, 1)
        XCTAssertEqual(harness.libraryFiles, [first.fileName])
    }

    /// A file elsewhere would be renamed across folders (or file systems):
    /// refused as a programming mistake, and removed like any refused one.
    func testAFileOutsideTheLibraryFolderIsRefused() throws {
        let harness = try StoreHarness()
        let elsewhere = harness.folder.appending("elsewhere")
        try FileSystem.makeDirectory(elsewhere)
        let file = try TemporaryFile(in: elsewhere, purpose: "upload")
        let bytes = Fixtures.bytes("tone-mono-16k.wav")
        try bytes.withUnsafeBytes { try FileSystem.writeAll(file.descriptor, $0.baseAddress!, count: $0.count, path: file.path) }
        XCTAssertThrowsError(try harness.store.importWritten(file)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .internalFailure, "\(error)")
        }
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
    }
}
