import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// AAC and ALAC, in MP4 and CAF: the audio phones record, read through
/// FFmpeg (ALAC in CAF through libsndfile, which reads it), by the same
/// one-pass scan as every other format. ffprobe and ffmpeg are the judges.
final class PhoneAudioScanTests: XCTestCase {
    /// Each fixture with its container, encoding, rate and channels.
    static let fixtures: [(String, String, String, Int, Int)] = [
        ("aac.m4a", "MP4", "AAC", 16000, 1),
        ("voice-memo.m4a", "MP4", "AAC", 48000, 1),
        ("aac-stereo-44k.m4a", "MP4", "AAC", 44100, 2),
        ("fragmented.m4a", "MP4", "AAC", 48000, 1),
        ("alac.caf", "CAF", "ALAC 16-bit", 22050, 1),
        ("alac-24bit.m4a", "MP4", "ALAC 24-bit", 22050, 2),
    ]

    private func scan(_ name: String, chunkSize: Int = TeeStream.defaultChunkSize,
                      copyTo descriptor: Int32? = nil) throws -> ScannedAudio {
        try AudioScanner.scan(MemoryByteSource(Fixtures.bytes(name)), name: name, copyTo: descriptor,
                              chunkSize: chunkSize, progress: nil)
    }

    private func assertRefused(_ bytes: [UInt8], _ name: String, _ fragment: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try AudioScanner.scan(MemoryByteSource(bytes), name: name), file: file, line: line) { error in
            guard let error = error as? MemoError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, .badInput, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.en.contains(fragment), "\(error.message.en)", file: file, line: line)
            XCTAssertTrue(error.message.en.hasPrefix(name), file: file, line: line)
            XCTAssertFalse(error.message.ko.isEmpty, file: file, line: line)
        }
    }

    func testDescribesEachFixtureWithTheLengthFFprobeReports() throws {
        for (name, container, encoding, rate, channels) in Self.fixtures {
            let audio = try scan(name)
            let probed = try XCTUnwrap(FFmpegTool.probe(Fixtures.path(name)), name)
            XCTAssertEqual(audio.container, container, name)
            XCTAssertEqual(audio.encoding, encoding, name)
            XCTAssertEqual(audio.sampleRate, rate, name)
            XCTAssertEqual(probed.sampleRate, rate, name)
            XCTAssertEqual(audio.channels, channels, name)
            XCTAssertEqual(probed.channels, channels, name)
            XCTAssertEqual(audio.frames, probed.frames, name)
            XCTAssertEqual(audio.size, Int64(Fixtures.bytes(name).count), name)
            XCTAssertEqual(audio.checksum, StreamingChecksum.hexDigest(of: Fixtures.bytes(name)), name)
            XCTAssertGreaterThan(audio.peakLevel, 0.1, name)
            XCTAssertLessThanOrEqual(audio.peakLevel, 1, name)
        }
        XCTAssertEqual(try scan("aac.m4a").fileExtension, "m4a")
        XCTAssertEqual(try scan("alac.caf").fileExtension, "caf")
    }

    func testTheLengthLeavesOutTheEncodersPrimingAndPadding() throws {
        // 0.5 s at 16 kHz: FFmpeg's AAC encoder primes 1024 frames and pads
        // the last packet, which the container states and the decode drops.
        XCTAssertEqual(try scan("aac.m4a").frames, 8000)
        XCTAssertEqual(try scan("voice-memo.m4a").frames, 62400)
        // Fragmented, as MediaRecorder writes it: no edit list says how much
        // is priming, so ffprobe and memoapp count it (0.7 s and 1024 frames).
        XCTAssertEqual(try scan("fragmented.m4a").frames, 33600 + 1024)
    }

    func testReadsTheTitleTag() throws {
        XCTAssertEqual(try scan("voice-memo.m4a").titleTag, "회의 메모 Meeting")
        XCTAssertNil(try scan("aac.m4a").titleTag)
    }

    func testPeaksEqualFFmpegsOwnDecode() throws {
        for (name, _, _, _, channels) in Self.fixtures {
            let audio = try scan(name)
            let samples = Array(FFmpegTool.decode16(Fixtures.path(name)).prefix(Int(audio.frames) * channels))
            XCTAssertEqual(samples.count, Int(audio.frames) * channels, "\(name): ffmpeg decodes fewer frames")
            XCTAssertEqual(audio.peaks.values,
                           Reference.peaks(samples: samples, channels: channels, samplesPerPixel: 32), name)
            let magnitude = samples.map { abs(Int32($0)) }.max() ?? 0
            XCTAssertEqual(audio.peakLevel, Double(magnitude) / 32768, name)
        }
    }

    func testTinyChunksGiveTheSameResultAndCopyEveryByteInOrder() throws {
        // FFmpeg seeks (an MP4's index may follow its audio): every byte is
        // still checksummed and copied once, in order.
        for (name, _, _, _, _) in Self.fixtures {
            let whole = try scan(name)
            for chunkSize in [1, 7, 4096] {
                let folder = TemporaryDirectory()
                let path = folder.appending("copy")
                let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
                let audio = try scan(name, chunkSize: chunkSize, copyTo: descriptor)
                close(descriptor)
                XCTAssertEqual(audio.checksum, whole.checksum, "\(name) in chunks of \(chunkSize)")
                XCTAssertEqual(audio.frames, whole.frames, "\(name) in chunks of \(chunkSize)")
                XCTAssertEqual(audio.peaks, whole.peaks, "\(name) in chunks of \(chunkSize)")
                XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path)!), Fixtures.bytes(name),
                               "\(name) copy in chunks of \(chunkSize)")
            }
        }
    }

    func testRefusesACutM4AWhoseAudioEndsEarly() {
        assertRefused(Fixtures.bytes("truncated.m4a"), "truncated.m4a", "truncated")
    }

    func testRefusesACutM4AWhoseIndexIsLost() {
        assertRefused(Fixtures.bytes("truncated-moov.m4a"), "truncated-moov.m4a", "MP4/M4A")
    }

    func testRefusesEveryPrefixOfAnM4A() {
        // The index first (as phones write it) and the index last (ffmpeg's default).
        for name in ["voice-memo.m4a", "aac.m4a", "alac-24bit.m4a", "fragmented.m4a"] {
            let bytes = Fixtures.bytes(name)
            for length in [8, 12, 100, 1000, bytes.count / 2, bytes.count - 100, bytes.count - 1] {
                XCTAssertThrowsError(try AudioScanner.scan(MemoryByteSource(Array(bytes.prefix(length))), name: "x"),
                                     "\(name) cut to \(length) bytes") { error in
                    XCTAssertEqual((error as? MemoError)?.kind, .badInput, "\(name) cut to \(length): \(error)")
                }
            }
        }
    }

    func testRefusesDamagedAudioInsideAnM4A() {
        // Bytes of the AAC packets overwritten, the index intact.
        var bytes = Fixtures.bytes("voice-memo.m4a")
        let start = bytes.count / 2
        for index in start..<(start + 400) { bytes[index] = UInt8(truncatingIfNeeded: index &* 151 &+ 7) }
        assertRefused(bytes, "damaged.m4a", "corrupt")
    }

    func testRefusesMP4AudioThatIsNeitherAACNorALAC() {
        assertRefused(Fixtures.bytes("pcm.mov"), "pcm.mov", "memoapp reads AAC and ALAC")
    }

    func testAnythingElseIsNeverHandedToFFmpeg() {
        // FFmpeg would read these; memoapp only asks it for MP4 and CAF.
        let folder = TemporaryDirectory()
        let path = folder.appending("x.aac")
        XCTAssertTrue(FFmpegTool.ffmpeg(["-i", Fixtures.path("aac.m4a"), "-c", "copy", "-f", "adts", path]))
        assertRefused([UInt8](FileManager.default.contents(atPath: path)!), "x.aac", "not audio memoapp can read")
    }
}
