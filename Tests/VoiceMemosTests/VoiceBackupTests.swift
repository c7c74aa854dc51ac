import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// The voice part of a backup (`openFilesForBackup`, `VoiceBackupSource.copy`)
/// and of a restore (`VoiceLibraryInstaller`, `ChecksummedCopy`).
final class VoiceBackupTests: XCTestCase {
    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    private func mode(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    private func importTwo(_ harness: StoreHarness) throws -> [VoiceMemo] {
        [try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav")),
         try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))]
    }

    // MARK: Backup

    func testCopyHoldsEveryFileByteForByteUnderItsOwnName() throws {
        let harness = try StoreHarness()
        let memos = try importTwo(harness)
        let destination = harness.folder.appending("backup/voice")
        try FileManager.default.createDirectory(atPath: harness.folder.appending("backup"), withIntermediateDirectories: false)
        let source = try harness.store.openFilesForBackup(descriptorBudget: 100)
        XCTAssertTrue(source.isHoldingEveryFile)
        XCTAssertEqual(source.entries.map(\.fileName), memos.map(\.fileName))
        var progress: [Int] = []
        let copy = try source.copy(into: destination) { done, total in
            XCTAssertEqual(total, 2)
            progress.append(done)
        }
        XCTAssertEqual(progress, [1, 2])
        XCTAssertEqual(copy.problems, [])
        XCTAssertEqual(copy.files.map(\.fileName), memos.map(\.fileName))
        XCTAssertEqual(copy.files.map(\.checksum), memos.map(\.checksum))
        XCTAssertEqual(copy.files.map(\.size), memos.map(\.size))
        for memo in memos {
            XCTAssertEqual(bytes(destination + "/" + memo.fileName), bytes(harness.store.path(of: memo)))
            XCTAssertEqual(mode(of: destination + "/" + memo.fileName), 0o600)
        }
        XCTAssertEqual(mode(of: destination), 0o700)
    }

    func testAMemoRemovedAfterItsFileWasOpenedIsStillCopiedWhole() throws {
        let harness = try StoreHarness()
        let memos = try importTwo(harness)
        let original = try XCTUnwrap(bytes(harness.store.path(of: memos[0])))
        let source = try harness.store.openFilesForBackup(descriptorBudget: 100)
        // Another process removes the memo: row first, then the file.
        try harness.reopenedStore().remove(ids: [memos[0].id])
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.store.path(of: memos[0])))

        let destination = harness.folder.appending("copy")
        let copy = try source.copy(into: destination)
        XCTAssertEqual(copy.problems, [])
        XCTAssertEqual(bytes(destination + "/" + memos[0].fileName), original)
    }

    func testWithoutDescriptorsTheFilesAreOpenedOnlyWhenCopied() throws {
        let harness = try StoreHarness()
        let memos = try importTwo(harness)
        let source = try harness.store.openFilesForBackup(descriptorBudget: 1)
        XCTAssertFalse(source.isHoldingEveryFile, "the caller must then copy before releasing the lock")
        // Why: a removal between the snapshot and the copy loses the second file.
        try harness.reopenedStore().remove(ids: [memos[1].id])
        let copy = try source.copy(into: harness.folder.appending("copy"))
        XCTAssertEqual(copy.files.map(\.fileName), [memos[0].fileName])
        XCTAssertEqual(copy.problems.map(\.kind), [.missingFile])
        XCTAssertEqual(copy.problems.first?.memoID, memos[1].id)
    }

    func testAMissingFileIsAProblemAndTheOthersAreCopied() throws {
        let harness = try StoreHarness()
        let memos = try importTwo(harness)
        XCTAssertEqual(unlink(harness.store.path(of: memos[0])), 0)
        let source = try harness.store.openFilesForBackup(descriptorBudget: 100)
        XCTAssertTrue(source.isHoldingEveryFile, "a missing file needs no descriptor")
        let copy = try source.copy(into: harness.folder.appending("copy"))
        XCTAssertEqual(copy.files.map(\.fileName), [memos[1].fileName])
        XCTAssertEqual(copy.problems.map(\.kind), [.missingFile])
        XCTAssertTrue(copy.problems[0].message.en.contains("voice memo \(memos[0].id)"), copy.problems[0].message.en)
    }

    func testADamagedFileIsCopiedAsItIsAndReported() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let path = harness.store.path(of: memo)
        var damaged = try XCTUnwrap(bytes(path))
        damaged[damaged.count - 1] ^= 0xFF
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: damaged))

        let destination = harness.folder.appending("copy")
        let copy = try harness.store.openFilesForBackup(descriptorBudget: 100).copy(into: destination)
        XCTAssertEqual(copy.problems.map(\.kind), [.checksumMismatch])
        XCTAssertEqual(bytes(destination + "/" + memo.fileName), damaged)
        XCTAssertNotEqual(copy.files.first?.checksum, memo.checksum)
        XCTAssertEqual(copy.files.first?.checksum, StreamingChecksum.hexDigest(of: [UInt8](damaged)))
    }

    func testARowNamingAPathIsNeverFollowed() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let outside = harness.folder.appending("secret.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: outside, contents: Data("private".utf8)))
        try harness.connection.execute("UPDATE voice_memos SET file_name = ? WHERE id = ?", "../secret.txt", memo.id)

        let destination = harness.folder.appending("backup/voice")
        try FileManager.default.createDirectory(atPath: harness.folder.appending("backup"), withIntermediateDirectories: false)
        let copy = try harness.store.openFilesForBackup(descriptorBudget: 100).copy(into: destination)
        XCTAssertEqual(copy.files, [])
        XCTAssertEqual(copy.problems.map(\.kind), [.missingFile])
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder.appending("backup/secret.txt")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination), [])
    }

    func testCopyingOverAnExistingFileFailsInsteadOfReplacingIt() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let destination = harness.folder.appending("copy")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: destination + "/" + memo.fileName, contents: Data("x".utf8)))
        XCTAssertThrowsError(try harness.store.openFilesForBackup(descriptorBudget: 100).copy(into: destination)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .storage)
        }
        XCTAssertEqual(bytes(destination + "/" + memo.fileName), Data("x".utf8))
    }

    // MARK: Restore

    func testInstallerBringsAFileInAndUndoRemovesOnlyWhatItAdded() throws {
        let harness = try StoreHarness()
        let memos = try importTwo(harness)
        let library = harness.folder.appending("restored")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: false)
        let kept = library + "/" + memos[1].fileName
        XCTAssertTrue(FileManager.default.createFile(atPath: kept, contents: Data("old".utf8)))
        XCTAssertTrue(VoiceLibraryInstaller.hasFiles(in: library))

        let installer = VoiceLibraryInstaller(directory: library)
        for memo in memos {
            let size = try installer.install(from: harness.store.path(of: memo), as: memo.fileName, checksum: memo.checksum)
            XCTAssertEqual(size, memo.size)
            XCTAssertEqual(bytes(library + "/" + memo.fileName), bytes(harness.store.path(of: memo)))
        }
        try installer.finish()
        XCTAssertEqual(installer.addedNames, [memos[0].fileName])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library).sorted(),
                       memos.map(\.fileName).sorted(), "no temporary file is left")
        installer.undo()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library), [memos[1].fileName])
    }

    func testInstallerRefusesBytesThatDoNotMatchAndLeavesNothing() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let library = harness.folder.appending("restored")
        let installer = VoiceLibraryInstaller(directory: library)
        XCTAssertThrowsError(try installer.install(from: harness.store.path(of: memo), as: memo.fileName,
                                                   checksum: String(repeating: "0", count: 32))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .badInput)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library), [])
        XCTAssertFalse(VoiceLibraryInstaller.hasFiles(in: library))
    }

    func testInstallerRefusesNamesThatAreNotLibraryNames() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let installer = VoiceLibraryInstaller(directory: harness.folder.appending("restored"))
        let checksum = memo.checksum
        for name in ["../\(memo.fileName)", "1-\(checksum)./../x", ".hidden", "a/b", "", "1-\(checksum).", "1-\(checksum)"] {
            XCTAssertThrowsError(try installer.install(from: harness.store.path(of: memo), as: name, checksum: checksum),
                                 name) { XCTAssertEqual(($0 as? MemoError)?.kind, .usage, name) }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder.appending("restored")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder.appending("x")))
    }

    func testChecksumOfAFileIsTheRecordedOneAndSymbolicLinksAreRefused() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        let summary = try ChecksummedCopy.checksum(ofFileAt: harness.store.path(of: memo))
        XCTAssertEqual(summary, ChecksummedCopy.Summary(checksum: memo.checksum, size: memo.size))
        let link = harness.folder.appending("link")
        XCTAssertEqual(symlink(harness.store.path(of: memo), link), 0)
        XCTAssertThrowsError(try ChecksummedCopy.checksum(ofFileAt: link)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .noInput)
        }
        XCTAssertThrowsError(try ChecksummedCopy.checksum(ofFileAt: harness.folder.path)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .noInput, "a folder is not a regular file")
        }
    }
}
