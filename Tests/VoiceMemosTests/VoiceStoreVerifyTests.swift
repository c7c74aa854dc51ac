import Foundation
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreVerifyTests: XCTestCase {
    func testAHealthyLibraryHasNoProblems() throws {
        let harness = try StoreHarness()
        for name in Fixtures.good { _ = try harness.store.importFile(at: Fixtures.path(name)) }
        var checked: [Int] = []
        XCTAssertEqual(try harness.store.verify { index, _ in checked.append(index) }, [])
        XCTAssertEqual(checked.count, Fixtures.good.count)
    }

    func testReportsMissingChangedUndecodableAndOrphanFiles() throws {
        let harness = try StoreHarness()
        let missing = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let changed = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let broken = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        try FileManager.default.removeItem(atPath: harness.store.path(of: missing))
        // Same length, one sample changed: decodes fine, checksum differs.
        var bytes = Fixtures.bytes("tone-mono-16k.wav")
        bytes[1000] ^= 0x55
        _ = FileManager.default.createFile(atPath: harness.store.path(of: changed), contents: Data(bytes))
        let flac = Fixtures.bytes("chord-stereo-22k.flac")
        _ = FileManager.default.createFile(atPath: harness.store.path(of: broken), contents: Data(flac.prefix(flac.count / 2)))
        let orphan = "9-0123456789abcdef0123456789abcdef.wav"
        _ = FileManager.default.createFile(atPath: harness.store.directory + "/" + orphan, contents: Data("x".utf8))

        let problems = try harness.store.verify()
        XCTAssertEqual(problems.map(\.kind), [.missingFile, .checksumMismatch, .undecodable, .orphanFile])
        XCTAssertEqual(problems.map(\.memoID), [missing.id, changed.id, broken.id, nil])
        XCTAssertEqual(problems.last?.fileName, orphan)
        // Verify changes nothing.
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.store.directory + "/" + orphan))
        XCTAssertEqual(harness.rowCount, 3)
    }
}
