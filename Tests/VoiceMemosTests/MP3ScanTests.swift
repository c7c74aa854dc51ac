import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// MP3s as LAME and ffmpeg write them (fixtures/audio/mp3, made by
/// scripts/make-voice-fixtures with the length ffmpeg decodes each to).
final class MP3ScanTests: XCTestCase {
    /// Each fixture's name and its length in frames as ffmpeg decodes it.
    private static let lengths: [(name: String, frames: Int64)] = {
        let text = (try? String(contentsOfFile: Fixtures.path("mp3/lengths.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let frames = Int64(fields[1]) else { return nil }
            return (String(fields[0]), frames)
        }
    }()

    private func scan(_ name: String, chunkSize: Int = TeeStream.defaultChunkSize) throws -> ScannedAudio {
        try AudioScanner.scan(MemoryByteSource(Fixtures.bytes("mp3/" + name)), name: name, copyTo: nil,
                              chunkSize: chunkSize, progress: nil)
    }

    func testTheFixturesCoverLAMEAndFFmpegInEveryModeRateAndLayout() {
        let names = MP3ScanTests.lengths.map(\.name)
        XCTAssertEqual(names.count, 17)
        for part in ["lame-", "ffmpeg-", "-cbr-", "-vbr-", "-abr-", "-22k-", "-44k-", "-48k-", "-mono", "-stereo",
                     "notag", "noxing", "id3v1", "id3v2"] {
            XCTAssertTrue(names.contains { $0.contains(part) }, "no fixture for \(part)")
        }
        // Tagged and untagged in every bit-rate mode.
        for mode in ["-cbr-", "-vbr-", "-abr-"] {
            XCTAssertTrue(names.contains { $0.contains(mode) && !$0.contains("notag") && !$0.contains("noxing") }, mode)
            XCTAssertTrue(names.contains { $0.contains(mode) && ($0.contains("notag") || $0.contains("noxing")) }, mode)
        }
    }

    func testEveryMP3ThatLAMEAndFFmpegWriteScansToTheLengthItDecodesTo() throws {
        for (name, frames) in MP3ScanTests.lengths {
            let audio = try scan(name)
            XCTAssertEqual(audio.frames, frames, name)
            XCTAssertEqual(audio.container, "MP3", name)
            XCTAssertEqual(audio.fileExtension, "mp3", name)
            // The speech is LAME's default for espeak-ng's 22.05 kHz.
            let rate = [("-44k-", 44100), ("-48k-", 48000)].first { name.contains($0.0) }?.1 ?? 22050
            XCTAssertEqual(audio.sampleRate, rate, name)
            XCTAssertEqual(audio.channels, name.contains("stereo") ? 2 : 1, name)
            XCTAssertEqual(audio.peaks.frames, frames, name)
            XCTAssertEqual(audio.checksum, StreamingChecksum.hexDigest(of: Fixtures.bytes("mp3/" + name)), name)
            XCTAssertEqual(audio.size, Int64(Fixtures.bytes("mp3/" + name).count), name)
            XCTAssertGreaterThan(audio.peakLevel, 0.1, name)
        }
    }

    func testTheSpeechThatLAMEEncodesWithItsDefaultsImports() throws {
        // espeak-ng "Remember to buy milk" | lame: frames too small for a
        // LAME tag, so libsndfile once refused it as truncated.
        XCTAssertEqual(try scan("lame-default-speech.mp3").frames, 33408)
    }

    func testReadingInTinyChunksGivesTheSameResult() throws {
        for name in ["lame-vbr-48k-stereo-notag.mp3", "lame-vbr-44k-stereo-id3v2.mp3"] {
            let whole = try scan(name)
            let tiny = try scan(name, chunkSize: 7)
            XCTAssertEqual(tiny.frames, whole.frames, name)
            XCTAssertEqual(tiny.peaks, whole.peaks, name)
            XCTAssertEqual(tiny.checksum, whole.checksum, name)
            XCTAssertEqual(tiny.titleTag, whole.titleTag, name)
        }
    }

    func testTitlesInID3TagsBeforeAndAfterTheAudioAreRead() throws {
        XCTAssertEqual(try scan("lame-vbr-44k-stereo-id3v2.mp3").titleTag, "우유 사기 Milk")
        XCTAssertEqual(try scan("lame-cbr-22k-mono-id3v1-notag.mp3").titleTag, "Milk")
    }

    func testAnMP3CutShortOfTheFramesItsXingTagCountsIsRefused() {
        XCTAssertThrowsError(try scan("cut-ffmpeg-vbr-44k-stereo.mp3")) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .badInput)
            let message = (error as? MemoError)?.message.en ?? ""
            XCTAssertTrue(message.contains("truncated") && message.contains("promises 44100 frames"), message)
        }
    }

    func testAnMP3CutWithoutAFrameCountIsStoredWithTheLengthThatDecodes() throws {
        // Nothing in a bare MPEG stream states its length: the frames that
        // decode are all it has (about two thirds of the uncut 46080).
        let audio = try scan("cut-lame-cbr-44k-stereo-notag.mp3")
        XCTAssertEqual(Double(audio.frames), 46080.0 * 2 / 3, accuracy: 2 * 1152)
        XCTAssertEqual(audio.peaks.frames, audio.frames)
    }
}
