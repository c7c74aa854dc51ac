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
        let result = try export(harness.store, id: memo.id, as: .flac, to: destination)
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
            let result = try export(harness.store, id: memo.id, as: format, to: destination)
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

    func testAnUnknownMemoWritesNothing() throws {
        let harness = try StoreHarness()
        let destination = harness.folder.appending("x.wav")
        XCTAssertThrowsError(try export(harness.store, id: 5, as: .wav, to: destination)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .notFound)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data())
    }

    func testEachFormatNamesItsUsualEndingFirst() {
        XCTAssertEqual(ExportFormat.allCases.map { $0.fileExtensions.first }, ["wav", "flac", "ogg", "mp3"])
    }

    // MARK: - Helpers

    /// `writeAudio` into a new file at `destination`, as a caller's output file does.
    private func export(_ store: VoiceStore, id: Int64, as format: ExportFormat, to destination: String) throws -> ExportResult {
        let descriptor = open(destination, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        return try store.writeAudio(id: id, as: format, into: descriptor, shownPath: destination)
    }
}
