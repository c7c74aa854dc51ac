import Foundation
import MemoCore
import XCTest
@testable import VoiceMemos

final class PeaksDocumentTests: XCTestCase {
    private let peaks = WaveformPeaks(samplesPerPixel: 256, frames: 700, values: [-32768, 32767, -300, 255, 0, -1])

    func testHasAudiowaveformVersion2LayoutInOrder() {
        let document = PeaksDocument(peaks: peaks, sampleRate: 44100)
        XCTAssertEqual(document.jsonText,
                       #"{"version":2,"channels":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"length":3,"data":[-32768,32767,-300,255,0,-1]}"#)
    }

    func testEightBitsDivideBy256TowardZero() {
        let document = PeaksDocument(peaks: peaks, sampleRate: 8000, bits: 8)
        XCTAssertEqual(document.data, [-128, 127, -1, 0, 0, 0])
        XCTAssertEqual(document.bits, 8)
    }

    func testDirectTextEqualsTheJSONValueSerialised() throws {
        let big = WaveformPeaks(samplesPerPixel: 32, frames: 32_000,
                                values: (0..<2000).map { Int16(truncatingIfNeeded: $0 * 331 - 30000) })
        let document = PeaksDocument(peaks: big, sampleRate: 16000)
        XCTAssertEqual(document.jsonText, document.json.serialized)
        let parsed = try JSONSerialization.jsonObject(with: Data(document.jsonText.utf8)) as? [String: Any]
        XCTAssertEqual((parsed?["data"] as? [Int])?.count, 2000)
        XCTAssertEqual(parsed?["length"] as? Int, 1000)
    }
}
