import Dispatch
import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// Every command that reads a memo's stored audio reads that file and no
/// other: a symbolic link or a FIFO planted in voice/ in its place is
/// refused, and bytes other than the memo's never leave the command.
final class StoredAudioTests: XCTestCase {
    /// A file outside the library with content an attacker wants copied out.
    private func secret(in harness: StoreHarness) -> String {
        let path = harness.folder.appending("shadow")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("root:secret:1:0:99999:7:::\n".utf8)))
        return path
    }

    /// Replaces memo's stored file by a symbolic link to `target`.
    private func plantLink(to target: String, for memo: VoiceMemo, in harness: StoreHarness) throws {
        let path = harness.store.path(of: memo)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Hidden names (temporaries) in `folder`.
    private func hiddenNames(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") }
    }

    /// Runs `body` on another thread and returns its result; fails the test
    /// (and lets a stuck open of the FIFO at `path` through, so that the run
    /// goes on) when it has not returned within ten seconds.
    private func withoutWaiting<T>(on path: String, file: StaticString = #filePath, line: UInt = #line,
                                   _ body: @escaping () -> T?) -> T? {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .timedOut else { return box.value as? T }
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        _ = done.wait(timeout: .now() + 10)
        XCTFail("waited on the FIFO at \(path)", file: file, line: line)
        return nil
    }

    private func assertStorageError(_ body: @autoclosure () throws -> Any, mentioning words: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .storage, "\(error)", file: file, line: line)
            let message = (error as? MemoError)?.message.en ?? ""
            XCTAssertTrue(message.contains(words), message, file: file, line: line)
        }
    }

    func testExportDoesNotFollowALinkPlantedInPlaceOfTheStoredFile() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        // The link leads to a real WAV, so only the link itself can be the reason.
        let other = harness.folder.appending("other.wav")
        try FileManager.default.copyItem(atPath: Fixtures.path("tone-mono-16k.wav"), toPath: other)
        for target in [secret(in: harness), other] {
            try plantLink(to: target, for: memo, in: harness)
            for name in ["copied.wav", "converted.flac"] {
                let destination = harness.folder.appending(name)
                assertStorageError(try harness.store.export(id: memo.id, to: destination), mentioning: "symbolic link")
                XCTAssertFalse(FileManager.default.fileExists(atPath: destination), name)
            }
        }
        XCTAssertEqual(hiddenNames(in: harness.folder.path), [])
    }

    func testExportChecksTheBytesItCopiesOrConvertsAgainstTheChecksum() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        // The same length, one sample changed: it still decodes.
        var bytes = Fixtures.bytes("tone-mono-16k.wav")
        bytes[2000] ^= 0x55
        XCTAssertTrue(FileManager.default.createFile(atPath: harness.store.path(of: memo), contents: Data(bytes)))
        for name in ["copied.wav", "converted.flac", "converted.mp3"] {
            let destination = harness.folder.appending(name)
            assertStorageError(try harness.store.export(id: memo.id, to: destination), mentioning: "is not the audio it stored")
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination), name)
        }
        XCTAssertEqual(hiddenNames(in: harness.folder.path), [])
    }

    func testAFIFOInPlaceOfTheStoredFileIsRefusedWithoutWaitingForAWriter() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let path = harness.store.path(of: memo)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let store = harness.reopenedStore()
        let destination = harness.folder.appending("out.flac")
        let error = try XCTUnwrap(withoutWaiting(on: path) {
            do { _ = try store.export(id: memo.id, to: destination) } catch { return error }
            return nil
        })
        XCTAssertEqual((error as? MemoError)?.kind, .storage)
        XCTAssertTrue((error as? MemoError)?.message.en.contains("not a regular file") ?? false, "\(error)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination))
    }

    func testTrimRefusesALinkAndLeavesTheMemoAsItWas() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        let other = harness.folder.appending("other.flac")
        try FileManager.default.copyItem(atPath: Fixtures.path("chord-stereo-22k.flac"), toPath: other)
        try plantLink(to: other, for: memo, in: harness)
        assertStorageError(try harness.store.trim(id: memo.id, start: 0.1, end: 0.5), mentioning: "symbolic link")
        XCTAssertEqual(try harness.store.memo(id: memo.id), memo)
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
    }

    func testVerifyReportsALinkAsTheMissingFileItStandsFor() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let other = harness.folder.appending("other.wav")
        try FileManager.default.copyItem(atPath: Fixtures.path("tone-mono-16k.wav"), toPath: other)
        // Even a link to the very same bytes is not the stored file.
        try plantLink(to: other, for: memo, in: harness)
        let problems = try harness.store.verify()
        XCTAssertEqual(problems.map(\.kind), [.missingFile])
        XCTAssertTrue(problems.first?.message.en.contains("symbolic link") ?? false, "\(problems)")
    }

    func testBackupCopiesNeitherALinkNorAFIFO() throws {
        let harness = try StoreHarness()
        let linked = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let piped = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        try plantLink(to: secret(in: harness), for: linked, in: harness)
        try FileManager.default.removeItem(atPath: harness.store.path(of: piped))
        XCTAssertEqual(mkfifo(harness.store.path(of: piped), 0o600), 0)
        let store = harness.reopenedStore()
        let source = try XCTUnwrap(withoutWaiting(on: harness.store.path(of: piped)) {
            try? store.openFilesForBackup(descriptorBudget: 100)
        })
        XCTAssertTrue(source.isHoldingEveryFile)
        let destination = harness.folder.appending("backup-voice")
        let copy = try source.copy(into: destination)
        XCTAssertEqual(copy.files, [])
        XCTAssertEqual(copy.problems.map(\.kind), [.missingFile, .missingFile])
        XCTAssertTrue(copy.problems[0].message.en.contains("symbolic link"), copy.problems[0].message.en)
        XCTAssertTrue(copy.problems[1].message.en.contains("not a regular file"), copy.problems[1].message.en)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination), [])
    }

    func testAnExportsImportTakesNoAudioThroughALinkInTheLibraryFolder() throws {
        let source = try StoreHarness()
        let memo = try source.store.importFile(at: Fixtures.path("beep.mp3"))
        let item = try VoiceArchive.item(from: JSONReader(VoiceArchive.exportMemos(from: source.connection)[0]))
        let target = try StoreHarness()
        try FileManager.default.createDirectory(atPath: target.store.directory, withIntermediateDirectories: false)
        // The right bytes, but reached through a link in the target's own voice/.
        try FileManager.default.createSymbolicLink(atPath: target.store.directory + "/" + memo.fileName,
                                                   withDestinationPath: source.store.path(of: memo))
        let audio = VoiceAudioImport(directory: target.store.directory, searchFolders: [target.store.directory])
        XCTAssertFalse(try audio.stage(item))
        audio.finish(committed: true)
        // A folder the user names may hold links.
        let folder = TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: folder.appending(memo.fileName),
                                                   withDestinationPath: source.store.path(of: memo))
        let named = VoiceAudioImport(directory: target.store.directory, searchFolders: [folder.path])
        XCTAssertTrue(try named.stage(item))
        named.finish(committed: true)
    }
}

/// A result handed from another thread (read only after its semaphore).
private final class ResultBox: @unchecked Sendable {
    var value: Any?
}
