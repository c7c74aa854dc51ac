import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreTrimTests: XCTestCase {
    func testKeepsTheSpanExactlyAndReplacesFileMetadataAndPeaks() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"), options: ImportOptions(tags: ["t"]))
        let original = Reference.decode(Fixtures.path("chord-stereo-22k.flac"))
        let trimmed = try harness.store.trim(id: memo.id, start: 0.5, end: 1.0)
        XCTAssertEqual(trimmed.frames, 11025)
        XCTAssertEqual(trimmed.container, "FLAC")
        XCTAssertEqual(trimmed.title, memo.title)
        XCTAssertEqual(trimmed.tags, ["t"])
        XCTAssertNotEqual(trimmed.checksum, memo.checksum)
        XCTAssertEqual(harness.libraryFiles, [trimmed.fileName])
        let decoded = Reference.decode(harness.store.path(of: trimmed))
        XCTAssertEqual(decoded.samples, Array(original.samples[(11025 * 2)..<(22050 * 2)]))
        XCTAssertEqual(try harness.store.peaks(id: memo.id).values,
                       Reference.peaks(samples: decoded.samples, channels: 2, samplesPerPixel: 32))
        XCTAssertEqual(StreamingChecksum.hexDigest(of: [UInt8](FileManager.default.contents(atPath: harness.store.path(of: trimmed))!)),
                       trimmed.checksum)
        XCTAssertEqual(try harness.store.verify(), [])
    }

    func testTrimsLossyFormatsInTheirOwnFormat() throws {
        let harness = try StoreHarness()
        for name in ["korean-title.ogg", "beep.mp3", "voice.opus", "sweep-24bit.aiff", "float-mono.caf"] {
            let memo = try harness.store.importFile(at: Fixtures.path(name))
            let trimmed = try harness.store.trim(id: memo.id, start: 0.1, end: 0.4)
            XCTAssertEqual(trimmed.container, memo.container, name)
            XCTAssertEqual(trimmed.encoding, memo.encoding, name)
            XCTAssertEqual(trimmed.duration, 0.3, accuracy: 0.06, name)
        }
        XCTAssertEqual(try harness.store.verify(), [])
    }

    func testEmptyOrOutsideSpansAreUsageErrorsAndChangeNothing() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        for (start, end) in [(0.5, 0.5), (0.6, 0.2), (-1, 0.5), (0.5, 1.5), (1.0, 2.0), (Double.nan, 1)] {
            XCTAssertThrowsError(try harness.store.trim(id: memo.id, start: start, end: end), "\(start)-\(end)") {
                XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
            }
        }
        XCTAssertEqual(try harness.store.memo(id: memo.id), memo)
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
        XCTAssertThrowsError(try harness.store.trim(id: 9, start: 0, end: 1)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .notFound)
        }
    }

    func testTheWholeSpanIsAllowed() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let trimmed = try harness.store.trim(id: memo.id, start: 0, end: 1.0)
        XCTAssertEqual(trimmed.frames, memo.frames)
        XCTAssertEqual(Reference.decode(harness.store.path(of: trimmed)).samples,
                       Reference.decode(Fixtures.path("tone-mono-16k.wav")).samples)
        XCTAssertEqual(harness.libraryFiles.count, 1)
    }
}
