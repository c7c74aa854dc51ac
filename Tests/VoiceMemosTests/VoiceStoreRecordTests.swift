import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreRecordTests: XCTestCase {
    /// A pipe with `bytes` written to it and then closed (end of input) unless `keepOpen`.
    private func pipe(with bytes: [UInt8], keepOpen: Bool = false) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&descriptors), 0)
        bytes.withUnsafeBytes { _ = write(descriptors[1], $0.baseAddress, $0.count) }
        if !keepOpen { close(descriptors[1]) }
        return (descriptors[0], descriptors[1])
    }

    private func littleEndian(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    func testRecordsS16UntilTheEndOfInputAsFLAC() throws {
        let harness = try StoreHarness()
        let samples: [Int16] = (0..<8000).map { Int16(truncatingIfNeeded: $0 * 13 - 20000) }
        let input = pipe(with: littleEndian(samples))
        defer { close(input.read) }
        let memo = try harness.store.record(from: input.read, options: RecordingOptions(title: "Standup"))
        XCTAssertEqual(memo.title, "Standup")
        XCTAssertEqual(memo.container, "FLAC")
        XCTAssertEqual(memo.sampleRate, 16000)
        XCTAssertEqual(memo.frames, 8000)
        XCTAssertEqual(Reference.decode(harness.store.path(of: memo)).samples, samples)
        XCTAssertEqual(try harness.store.verify(), [])
    }

    func testRecordsStereoS24AndF32AsWAV() throws {
        let harness = try StoreHarness()
        // s24: three bytes per sample; 0x123456 and -1.
        let s24: [UInt8] = Array(repeating: [0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF], count: 100).flatMap { $0 }
        let first = pipe(with: s24)
        defer { close(first.read) }
        let memo = try harness.store.record(from: first.read, options: RecordingOptions(
            sampleRate: 8000, channels: 2, sampleFormat: .s24, container: .wav))
        XCTAssertEqual(memo.encoding, "PCM 24-bit")
        XCTAssertEqual(memo.channels, 2)
        XCTAssertEqual(memo.frames, 100)
        var floats: [UInt8] = []
        for value: Float in [0.5, -0.25, 1.0, 0] { withUnsafeBytes(of: value.bitPattern.littleEndian) { floats += $0 } }
        let second = pipe(with: floats)
        defer { close(second.read) }
        let float = try harness.store.record(from: second.read, options: RecordingOptions(sampleFormat: .f32, container: .wav))
        XCTAssertEqual(float.encoding, "float 32-bit")
        XCTAssertEqual(float.frames, 4)
        XCTAssertEqual(float.peakLevel, 1.0, accuracy: 0.001)
    }

    func testAStopRequestFinalisesWhatWasCaptured() throws {
        let harness = try StoreHarness()
        // The writer stays open, as arecord would: only the stop ends the capture.
        let input = pipe(with: littleEndian(Array(repeating: 1000, count: 4000)), keepOpen: true)
        defer { close(input.read); close(input.write) }
        // Stop once everything written has been taken from the pipe, as a Ctrl-C after speaking would.
        let memo = try harness.store.record(from: input.read, options: RecordingOptions(), shouldStop: {
            var pending: Int32 = 0
            return ioctl(input.read, UInt(FIONREAD), &pending) == 0 && pending == 0
        })
        XCTAssertEqual(memo.frames, 4000)
        XCTAssertEqual(Reference.decode(harness.store.path(of: memo)).samples.count, 4000)
    }

    func testNothingCapturedIsRefusedAndLeavesNothing() throws {
        let harness = try StoreHarness()
        let input = pipe(with: [0x01])
        defer { close(input.read) }
        XCTAssertThrowsError(try harness.store.record(from: input.read, options: RecordingOptions())) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .badInput)
        }
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(harness.libraryFiles, [])
    }

    func testAnInputThatEndsInTheMiddleOfAFrameIsRefusedAndLeavesNothing() throws {
        let harness = try StoreHarness()
        // Three bytes of s16 mono: one frame and half of another.
        let cases: [([UInt8], RecordingOptions)] = [
            ([0x61, 0x62, 0x63], RecordingOptions()),
            (Array(repeating: 0x10, count: 16001), RecordingOptions()),
            (Array(repeating: 0x10, count: 7), RecordingOptions(channels: 2, sampleFormat: .s24, container: .wav)),
            (Array(repeating: 0x00, count: 6), RecordingOptions(sampleFormat: .f32, container: .wav)),
        ]
        for (bytes, options) in cases {
            let input = pipe(with: bytes)
            defer { close(input.read) }
            XCTAssertThrowsError(try harness.store.record(from: input.read, options: options), "\(bytes.count) bytes") {
                XCTAssertEqual(($0 as? MemoError)?.kind, .badInput)
                XCTAssertTrue(($0 as? MemoError)?.message.en.contains("not whole frames") ?? false, "\($0)")
            }
        }
        XCTAssertEqual(harness.rowCount, 0)
        XCTAssertEqual(harness.libraryFiles, [])
    }

    func testAStopMayCutAFrameAndKeepsTheWholeOnes() throws {
        let harness = try StoreHarness()
        // Half a sample more than 4000 frames, and the writer still there: the stop ends it, not the input.
        let input = pipe(with: littleEndian(Array(repeating: 1000, count: 4000)) + [0x01], keepOpen: true)
        defer { close(input.read); close(input.write) }
        let memo = try harness.store.record(from: input.read, options: RecordingOptions(), shouldStop: {
            var pending: Int32 = 0
            return ioctl(input.read, UInt(FIONREAD), &pending) == 0 && pending == 0
        })
        XCTAssertEqual(memo.frames, 4000)
    }

    func testSettingsTheContainerCannotHoldAreUsageErrors() throws {
        let harness = try StoreHarness()
        let input = pipe(with: [])
        defer { close(input.read) }
        XCTAssertThrowsError(try harness.store.record(from: input.read, options: RecordingOptions(channels: 12))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
        }
        XCTAssertThrowsError(try harness.store.record(from: input.read, options: RecordingOptions(sampleRate: 0))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
        }
        XCTAssertEqual(harness.libraryFiles, [])
    }
}
