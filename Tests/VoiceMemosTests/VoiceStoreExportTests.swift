import CSndFile
import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreExportTests: XCTestCase {
    func testSameFormatCopiesTheStoredBytes() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        let destination = harness.folder.appending("out.flac")
        let result = try harness.store.export(id: memo.id, to: destination)
        XCTAssertTrue(result.isVerbatimCopy)
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: destination)!), Fixtures.bytes("chord-stereo-22k.flac"))
    }

    func testConvertsToEachFormatAndKeepsTheAudio() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"),
                                                options: ImportOptions(title: "회의"))
        let original = Reference.decode(Fixtures.path("tone-mono-16k.wav"))
        for format in ExportFormat.allCases {
            let destination = harness.folder.appending("out-\(format.rawValue).\(format.rawValue)")
            let result = try harness.store.export(id: memo.id, to: destination)
            // The memo is a 16-bit WAV: exporting to WAV copies it; the rest convert and carry the title.
            XCTAssertEqual(result.isVerbatimCopy, format == .wav, "\(format)")
            let decoded = Reference.decode(destination)
            XCTAssertEqual(decoded.rate, 16000, "\(format)")
            XCTAssertEqual(decoded.channels, 1, "\(format)")
            if format == .flac || format == .ogg {
                var info = SF_INFO()
                let file = sf_open(destination, Int32(SFM_READ), &info)
                XCTAssertEqual(sf_get_string(file, Int32(SF_STR_TITLE)).map { String(cString: $0) }, "회의", "\(format)")
                sf_close(file)
            }
            if format == .flac || format == .wav {
                // Lossless: exactly the same samples.
                XCTAssertEqual(decoded.samples, original.samples, "\(format)")
            } else {
                // Lossy: the same length give or take the codec's padding.
                XCTAssertEqual(Double(decoded.samples.count), Double(original.samples.count), accuracy: 3000, "\(format)")
            }
        }
    }

    func testExistingDestinationIsKeptUnlessForced() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let destination = harness.folder.appending("keep.wav")
        _ = FileManager.default.createFile(atPath: destination, contents: Data("mine".utf8))
        XCTAssertThrowsError(try harness.store.export(id: memo.id, to: destination)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .invalidState)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data("mine".utf8))
        _ = try harness.store.export(id: memo.id, to: destination, overwrite: true)
        XCTAssertEqual(Reference.decode(destination).rate, 22050)
        // No temporary is left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: harness.folder.path).filter { $0.hasPrefix(".") }, [])
    }

    func testUnknownFormatIsAUsageErrorAndWritesNothing() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let destination = harness.folder.appending("out.xyz")
        XCTAssertThrowsError(try harness.store.export(id: memo.id, to: destination)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination))
        _ = try harness.store.export(id: memo.id, to: destination, format: .ogg)
        XCTAssertEqual(Reference.decode(destination).rate, 22050)
        XCTAssertThrowsError(try harness.store.export(id: 5, to: harness.folder.appending("x.wav"))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .notFound)
        }
    }
}
