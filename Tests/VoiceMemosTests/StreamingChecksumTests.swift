import XCTest
@testable import VoiceMemos

final class StreamingChecksumTests: XCTestCase {
    func testEmptyInputHasTheKnownXXH3Digest() {
        // xxh128sum of an empty file.
        XCTAssertEqual(StreamingChecksum().hexDigest, "99aa06d3014798d86001c324468d497f")
    }

    func testDigestMatchesXXH128SumOfAFixture() {
        // `xxh128sum fixtures/audio/tone-mono-16k.wav`
        XCTAssertEqual(StreamingChecksum.hexDigest(of: Fixtures.bytes("tone-mono-16k.wav")),
                       "fe5212ebc455a0c2616fe0cb8d36983e")
    }

    func testUpdatesInPiecesGiveTheSameDigestAsOneUpdate() {
        let bytes = Fixtures.bytes("chord-stereo-22k.flac")
        let pieces = StreamingChecksum()
        bytes.withUnsafeBytes { raw in
            var offset = 0
            var size = 1
            while offset < raw.count {
                let count = min(size, raw.count - offset)
                pieces.update(raw.baseAddress! + offset, count: count)
                offset += count
                size = size * 3 + 1
            }
        }
        XCTAssertEqual(pieces.hexDigest, StreamingChecksum.hexDigest(of: bytes))
        XCTAssertNotEqual(pieces.hexDigest, StreamingChecksum.hexDigest(of: Array(bytes.dropLast())))
    }
}
