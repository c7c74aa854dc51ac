import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// `ArrivingFileByteSource`: reads of a file still being written wait for
/// their bytes, and the scan made through it while a writer trickles the file
/// in equals the scan of the finished file.
final class ArrivingFileByteSourceTests: XCTestCase {
    private func spool(_ harness: StoreHarness) throws -> TemporaryFile {
        try FileSystem.makeDirectory(harness.store.directory)
        return try TemporaryFile(in: harness.store.directory, purpose: "upload")
    }

    private func write(_ bytes: ArraySlice<UInt8>, to file: TemporaryFile) throws {
        try bytes.withUnsafeBytes { try FileSystem.writeAll(file.descriptor, $0.baseAddress!, count: $0.count, path: file.path) }
    }

    /// Writes `bytes` to `file` in pieces of `piece` bytes on another thread,
    /// telling `source` after each; `stopAfter` bytes end it early with `fail`.
    private func trickle(_ bytes: [UInt8], to file: TemporaryFile, source: ArrivingFileByteSource, piece: Int,
                         stopAfter: Int? = nil) -> Thread {
        let thread = Thread { [self] in
            var offset = 0
            while offset < bytes.count {
                if let stopAfter, offset >= stopAfter {
                    source.fail(MemoError(.badInput, en: "cut off", ko: "끊김"))
                    return
                }
                let end = min(offset + piece, bytes.count)
                try! write(bytes[offset..<end], to: file)
                source.arrived(count: end - offset)
                offset = end
            }
        }
        thread.start()
        return thread
    }

    func testAScanWhileTheFileArrivesEqualsTheScanOfTheWholeFile() throws {
        let harness = try StoreHarness()
        for fixture in ["tone-mono-16k.wav", "chord-stereo-22k.flac"] {
            let bytes = Fixtures.bytes(fixture)
            let file = try spool(harness)
            let source = ArrivingFileByteSource(descriptor: file.descriptor, path: file.path, length: Int64(bytes.count))
            // Pieces far smaller than the scan's reads, so that reads must wait.
            _ = trickle(bytes, to: file, source: source, piece: 517)
            let arriving = try AudioScanner.scan(source, name: fixture, copyTo: nil, chunkSize: 4096, progress: nil)
            let whole = try AudioScanner.scan(MemoryByteSource(bytes), name: fixture)
            XCTAssertEqual(arriving.checksum, whole.checksum, fixture)
            XCTAssertEqual(arriving.frames, whole.frames, fixture)
            XCTAssertEqual(arriving.size, Int64(bytes.count), fixture)
            XCTAssertEqual(arriving.peaks, whole.peaks, fixture)
            XCTAssertEqual(source.arrivedCount, Int64(bytes.count), fixture)
            file.discard()
        }
    }

    func testAReadWaitsForItsBytesAndStopsAtTheDeclaredLength() throws {
        let harness = try StoreHarness()
        let file = try spool(harness)
        let source = ArrivingFileByteSource(descriptor: file.descriptor, path: file.path, length: 10)
        try write(ArraySlice(Array("01234".utf8)), to: file)
        source.arrived(count: 5)
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(try source.read(at: 0, into: &buffer, count: 5), 5)
        XCTAssertEqual(Array(buffer[0..<5]), Array("01234".utf8))
        // Bytes 5..9 are not there yet: the read waits until they are.
        let writer = Thread { [self] in
            try! write(ArraySlice(Array("56789".utf8)), to: file)
            source.arrived(count: 5)
        }
        writer.start()
        XCTAssertEqual(try source.read(at: 3, into: &buffer, count: 16), 7)
        XCTAssertEqual(Array(buffer[0..<7]), Array("3456789".utf8))
        // At and past the declared length: the end, as with a file.
        XCTAssertEqual(try source.read(at: 10, into: &buffer, count: 4), 0)
        XCTAssertEqual(try source.read(at: 99, into: &buffer, count: 4), 0)
        XCTAssertEqual(try source.read(at: -1, into: &buffer, count: 4), 0)
        file.discard()
    }

    func testAnUploadCutOffFailsTheWaitingScanAndStoresNothing() throws {
        let harness = try StoreHarness()
        let bytes = Fixtures.bytes("chord-stereo-22k.flac")
        let file = try spool(harness)
        let source = ArrivingFileByteSource(descriptor: file.descriptor, path: file.path, length: Int64(bytes.count))
        _ = trickle(bytes, to: file, source: source, piece: 1000, stopAfter: bytes.count / 2)
        XCTAssertThrowsError(try AudioScanner.scan(source, name: "cut.flac", copyTo: nil, chunkSize: 4096,
                                                   progress: nil)) { error in
            // The upload's own failure, not libsndfile reading a short file as whole.
            XCTAssertEqual((error as? MemoError)?.kind, .badInput, "\(error)")
            XCTAssertEqual((error as? MemoError)?.message.en, "cut off", "\(error)")
        }
        XCTAssertLessThan(source.arrivedCount, Int64(bytes.count))
        file.discard()
    }

    func testAScanMadeWhileArrivingIsWhatImportWrittenStores() throws {
        let harness = try StoreHarness()
        let bytes = Fixtures.bytes("tone-mono-16k.wav")
        let file = try spool(harness)
        let source = ArrivingFileByteSource(descriptor: file.descriptor, path: file.path, length: Int64(bytes.count))
        _ = trickle(bytes, to: file, source: source, piece: 4096)
        let scanned = try AudioScanner.scan(source, name: "tone-mono-16k.wav")
        let memo = try harness.store.importWritten(file, options: ImportOptions(originalName: "tone-mono-16k.wav"),
                                                   scanned: scanned)
        let reference = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"),
                                                     options: ImportOptions(allowDuplicate: true))
        XCTAssertEqual(memo.checksum, reference.checksum)
        XCTAssertEqual(memo.frames, reference.frames)
        XCTAssertEqual(try harness.store.peaks(id: memo.id).values, try harness.store.peaks(id: reference.id).values)
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: harness.store.path(of: memo))!), bytes)
    }
}
