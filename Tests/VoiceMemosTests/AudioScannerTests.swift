import CSndFile
import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

final class AudioScannerTests: XCTestCase {
    private func scan(_ name: String, chunkSize: Int = TeeStream.defaultChunkSize) throws -> ScannedAudio {
        try AudioScanner.scan(MemoryByteSource(Fixtures.bytes(name)), name: name, copyTo: nil,
                              chunkSize: chunkSize, progress: nil)
    }

    private func assertRefused(_ name: String, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try scan(name), file: file, line: line) { error in
            guard let error = error as? MemoError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, .badInput, file: file, line: line)
            XCTAssertTrue(error.message.en.contains(fragment), "\(error.message.en)", file: file, line: line)
            XCTAssertTrue(error.message.en.hasPrefix(name), file: file, line: line)
            XCTAssertFalse(error.message.ko.isEmpty, file: file, line: line)
        }
    }

    func testDescribesEachFormatOfTheFixtures() throws {
        let expected: [String: (String, String, Int, Int, Int64)] = [
            "tone-mono-16k.wav": ("WAV", "PCM 16-bit", 16000, 1, 16000),
            "chord-stereo-22k.flac": ("FLAC", "PCM 16-bit", 22050, 2, 33075),
            "korean-title.ogg": ("Ogg", "Vorbis", 16000, 1, 32000),
            "beep.mp3": ("MP3", "MPEG layer III", 22050, 1, 22050),
            "voice.opus": ("Ogg", "Opus", 48000, 1, 48000),
            "sweep-24bit.aiff": ("AIFF", "PCM 24-bit", 8000, 2, 4000),
            "float-mono.caf": ("CAF", "float 32-bit", 8000, 1, 4000),
            "flac-named.wav": ("FLAC", "PCM 16-bit", 11025, 1, 5512),
        ]
        for name in Fixtures.good {
            let audio = try scan(name)
            let (container, encoding, rate, channels, frames) = expected[name]!
            XCTAssertEqual(audio.container, container, name)
            XCTAssertEqual(audio.encoding, encoding, name)
            XCTAssertEqual(audio.sampleRate, rate, name)
            XCTAssertEqual(audio.channels, channels, name)
            XCTAssertEqual(audio.frames, frames, name)
            XCTAssertEqual(audio.size, Int64(Fixtures.bytes(name).count), name)
            XCTAssertEqual(audio.checksum, StreamingChecksum.hexDigest(of: Fixtures.bytes(name)), name)
            XCTAssertGreaterThan(audio.peakLevel, 0.3, name)
            XCTAssertLessThanOrEqual(audio.peakLevel, 1, name)
        }
        XCTAssertEqual(try scan("flac-named.wav").fileExtension, "flac")
        XCTAssertEqual(try scan("voice.opus").fileExtension, "opus")
    }

    func testReadsTheTitleTagIncludingKorean() throws {
        XCTAssertEqual(try scan("korean-title.ogg").titleTag, "회의 메모 — 3월")
        XCTAssertEqual(try scan("chord-stereo-22k.flac").titleTag, "Chord in two channels")
        XCTAssertNil(try scan("tone-mono-16k.wav").titleTag)
    }

    func testPeaksEqualAnIndependentDecodeOfEveryFixture() throws {
        for name in Fixtures.good {
            let audio = try scan(name)
            let reference = Reference.decode(Fixtures.path(name))
            XCTAssertEqual(audio.peaks.samplesPerPixel, 32, name)
            XCTAssertEqual(audio.peaks.values,
                           Reference.peaks(samples: reference.samples, channels: reference.channels, samplesPerPixel: 32),
                           name)
            let magnitude = reference.samples.map { abs(Int32($0)) }.max()!
            XCTAssertEqual(audio.peakLevel, Double(magnitude) / 32768, name)
        }
    }

    func testTinyChunksGiveTheSameResultAndCopyEveryByteInOrder() throws {
        for name in Fixtures.good {
            let whole = try scan(name)
            for chunkSize in [1, 7, 4096] {
                let folder = TemporaryDirectory()
                let path = folder.appending("copy")
                let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
                let audio = try AudioScanner.scan(MemoryByteSource(Fixtures.bytes(name)), name: name,
                                                  copyTo: descriptor, chunkSize: chunkSize, progress: nil)
                close(descriptor)
                XCTAssertEqual(audio.checksum, whole.checksum, "\(name) in chunks of \(chunkSize)")
                XCTAssertEqual(audio.peaks, whole.peaks, "\(name) in chunks of \(chunkSize)")
                XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path)!), Fixtures.bytes(name),
                               "\(name) copy in chunks of \(chunkSize)")
            }
        }
    }

    func testCopiesTheTailThatTheDecoderNeverReads() throws {
        // Bytes after the audio data (a trailing chunk libsndfile skips) still belong to the file.
        var bytes = Fixtures.bytes("tone-mono-16k.wav")
        bytes += Array("JUNK".utf8) + [8, 0, 0, 0] + Array("trailing".utf8)
        let audio = try AudioScanner.scan(MemoryByteSource(bytes), name: "x.wav", copyTo: nil, chunkSize: 1000,
                                          progress: nil)
        XCTAssertEqual(audio.size, Int64(bytes.count))
        XCTAssertEqual(audio.checksum, StreamingChecksum.hexDigest(of: bytes))
    }

    func testReportsProgressUpToTheWholeFile() throws {
        var reports: [(Int64, Int64)] = []
        let bytes = Fixtures.bytes("chord-stereo-22k.flac")
        _ = try AudioScanner.scan(MemoryByteSource(bytes), name: "x", progress: { reports.append(($0, $1)) })
        XCTAssertEqual(reports.last?.0, Int64(bytes.count))
        XCTAssertEqual(reports.last?.1, Int64(bytes.count))
    }

    func testRefusesEmptyFiles() { assertRefused("empty.wav", "empty") }
    func testRefusesTruncatedWAV() { assertRefused("truncated.wav", "truncated") }
    func testRefusesTruncatedFLAC() { assertRefused("truncated.flac", "corrupt") }
    func testRefusesTruncatedMP3() { assertRefused("truncated.mp3", "truncated") }
    func testRefusesTextThatIsNotAudio() { assertRefused("not-audio.wav", "not audio") }
    func testRefusesZeroFrames() { assertRefused("zero-frames.wav", "zero frames") }
    func testRefusesAbsurdChannelCounts() { assertRefused("many-channels.wav", "200 channels") }

    func testRefusesEveryPrefixOfAWAVShorterThanItsHeaderPromises() {
        let bytes = Fixtures.bytes("tone-mono-16k.wav")
        for length in [1, 12, 43, 44, 45, 1000, bytes.count - 2, bytes.count - 1] {
            XCTAssertThrowsError(try AudioScanner.scan(MemoryByteSource(Array(bytes.prefix(length))), name: "x"),
                                 "prefix of \(length) bytes") { error in
                XCTAssertEqual((error as? MemoError)?.kind, .badInput)
            }
        }
    }

    func testAcceptsAnOggWhoseHeaderHasNoLengthWithTheDecodedLength() throws {
        // A stream whose end page was cut off reports SF_COUNT_MAX frames; decoding finds the true length.
        let folder = TemporaryDirectory()
        let path = folder.appending("long.ogg")
        Reference.write(path, format: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), rate: 8000, channels: 1, frames: 40000)
        var info = SF_INFO()
        let file = sf_open(path, Int32(SFM_READ), &info)
        sf_close(file)
        XCTAssertEqual(info.frames, 40000)
        let audio = try AudioScanner.scan(try FileByteSource(path: path), name: "long.ogg")
        XCTAssertEqual(audio.frames, 40000)
    }

    func testMissingPathIsNoInput() {
        XCTAssertThrowsError(try FileByteSource(path: "/nonexistent/x.wav")) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .noInput)
        }
        XCTAssertThrowsError(try FileByteSource(path: "/")) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .noInput)
        }
    }
}
