import Foundation
import TestSupport
import XCTest
@testable import MemoCore

/// The locked-temporary rule: a temporary is a leftover exactly when no one
/// holds its lock, whatever its age.
final class TemporaryFileTests: XCTestCase {
    private func names(in folder: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// A file by `name` in `folder` whose modification time is `age` seconds ago.
    private func makeFile(_ name: String, in folder: TemporaryDirectory, age: TimeInterval = 0) {
        let path = folder.appending(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
    }

    func testATemporaryIsLockedFromItsCreationAndKeptHoweverOld() throws {
        let folder = TemporaryDirectory()
        let file = try TemporaryFile(in: folder.path, purpose: "export")
        XCTAssertTrue(TemporaryFile.isTemporaryName(file.name), file.name)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -365 * 86400)],
                                              ofItemAtPath: file.path)
        // Another open file description (as another process would open it) cannot take the lock.
        let other = open(file.path, O_RDONLY)
        defer { close(other) }
        XCTAssertNotEqual(flock(other, LOCK_EX | LOCK_NB), 0)
        XCTAssertFalse(TemporaryFile.isAbandoned(file.path))
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path), [])
        XCTAssertEqual(names(in: folder), [file.name])
        // Closed (its writer gone): a leftover at once.
        file.closeDescriptor()
        XCTAssertTrue(TemporaryFile.isAbandoned(file.path))
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path), [file.name])
        XCTAssertEqual(names(in: folder), [])
    }

    func testAnUnlockedTemporaryIsALeftoverHoweverYoung() {
        let folder = TemporaryDirectory()
        makeFile(".import-0123456789abcdef.part", in: folder, age: 0)
        makeFile(".export-fedcba9876543210.wav.part", in: folder, age: 0)
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path).sorted(),
                       [".export-fedcba9876543210.wav.part", ".import-0123456789abcdef.part"])
        XCTAssertEqual(names(in: folder), [])
    }

    func testOnlyTheNamesTemporariesGetAreSwept() {
        let folder = TemporaryDirectory()
        let foreign = [".import-young.part", ".export-0123456789abcdeg.part", ".Export-0123456789abcdef.part",
                       "export-0123456789abcdef.part", ".export-0123456789ABCDEF.part", "movie.mkv.part",
                       ".export-0123456789abcdef.part.txt", ".export-0123456789abcdef.toolongext.part", ".part"]
        for name in foreign { makeFile(name, in: folder, age: 3600) }
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path), [])
        XCTAssertEqual(names(in: folder), foreign.sorted())
    }

    func testASweepOfSomePurposesLeavesTheOthers() {
        let folder = TemporaryDirectory()
        makeFile(".export-0123456789abcdef.part", in: folder)
        makeFile(".restore-0123456789abcdef.part", in: folder)
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path, purposes: ["export", "waveform"]),
                       [".export-0123456789abcdef.part"])
        XCTAssertEqual(names(in: folder), [".restore-0123456789abcdef.part"])
    }

    func testNeitherALinkNorAFIFONamedLikeATemporaryIsTouched() throws {
        let folder = TemporaryDirectory()
        makeFile("target", in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appending(".export-0123456789abcdef.part"),
                                                   withDestinationPath: folder.appending("target"))
        XCTAssertEqual(mkfifo(folder.appending(".export-fedcba9876543210.part"), 0o600), 0)
        XCTAssertEqual(TemporaryFile.removeAbandoned(in: folder.path), [])
        XCTAssertEqual(names(in: folder).count, 3)
    }

    func testDiscardRemovesTheFile() throws {
        let folder = TemporaryDirectory()
        let file = try TemporaryFile(in: folder.path, purpose: "trim")
        XCTAssertEqual(names(in: folder), [file.name])
        file.discard()
        XCTAssertEqual(names(in: folder), [])
    }
}
