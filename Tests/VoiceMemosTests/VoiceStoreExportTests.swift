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
        let result = try harness.store.export(id: memo.id, to: destination, format: .flac)
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
            let result = try harness.store.export(id: memo.id, to: destination, format: format)
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

    func testSamplesThatAreNotNumbersExportToEveryFormatAsSilenceOrFullScale() throws {
        let harness = try StoreHarness()
        let path = harness.folder.appending("nan.wav")
        let values: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38, 0.5]
        var info = SF_INFO()
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        info.samplerate = 8000
        info.channels = 1
        let file = try XCTUnwrap(sf_open(path, Int32(SFM_WRITE), &info))
        let samples = (0..<8000).map { values[$0 % values.count] }
        XCTAssertEqual(samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, 8000) }, 8000)
        sf_close(file)
        let memo = try harness.store.importFile(at: path)
        for format in ExportFormat.allCases {
            let destination = harness.folder.appending("out.\(format.rawValue)")
            XCTAssertNoThrow(try harness.store.export(id: memo.id, to: destination, format: format), "\(format)")
            XCTAssertEqual(Reference.decode(destination).rate, 8000, "\(format)")
        }
        // Lossless: NaN is silence, the infinities and overs are full scale.
        XCTAssertEqual(Array(Reference.decode(harness.folder.appending("out.flac")).samples.prefix(6)),
                       [0, 32767, -32768, 32767, -32768, 16384])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: harness.folder.path).filter { $0.hasPrefix(".") }, [])
    }

    func testAnEncoderThatRefusesSamplesWithoutAReasonIsNamedNotNoError() throws {
        let folder = TemporaryDirectory()
        let descriptor = open(folder.appending("x.flac"), O_RDWR | O_CREAT, 0o600)
        defer { close(descriptor) }
        let writer = try SoundFile.open(writingDescriptor: descriptor, format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24),
                                        sampleRate: 8000, channels: 1).get()
        // Past the sanitising copy: what libsndfile's FLAC encoder refuses, and libsndfile gives no error for.
        let samples = [Float](repeating: .nan, count: 4096)
        let written = samples.withUnsafeBufferPointer { writer.writeFrames($0.baseAddress!, count: 4096) }
        XCTAssertLessThan(written, 4096)
        let reason = writer.writeFailureReason(written: written, wanted: 4096)
        XCTAssertFalse(reason.contains("No Error"), reason)
        XCTAssertTrue(reason.contains("FLAC"), reason)
    }

    func testAnUnknownMemoWritesNothing() throws {
        let harness = try StoreHarness()
        let destination = harness.folder.appending("x.wav")
        XCTAssertThrowsError(try harness.store.export(id: 5, to: destination, format: .wav)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .notFound)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination))
    }

    func testEachFormatNamesItsUsualEndingFirst() {
        XCTAssertEqual(ExportFormat.allCases.map { $0.fileExtensions.first }, ["wav", "flac", "ogg", "mp3"])
    }
}
