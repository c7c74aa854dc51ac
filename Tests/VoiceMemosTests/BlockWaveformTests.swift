import XCTest
@testable import VoiceMemos

final class BlockWaveformTests: XCTestCase {
    func testLoudestColumnIsAFullBlockAndSilenceTheLowest() {
        let peaks = WaveformPeaks(samplesPerPixel: 1, frames: 4, values: [0, 0, -1000, 1000, -8000, 2000, 0, 0])
        XCTAssertEqual(BlockWaveform.line(peaks: peaks, width: 4), "▁▁█▁")
    }

    func testIsAtMostAsWideAsAsked() {
        let peaks = WaveformPeaks(samplesPerPixel: 1, frames: 100,
                                  values: (0..<200).map { (index: Int) -> Int16 in
                                      let magnitude = Int16(index * 100)
                                      return index % 2 == 0 ? -magnitude : magnitude
                                  })
        XCTAssertEqual(BlockWaveform.line(peaks: peaks, width: 40).count, 34)
        XCTAssertEqual(BlockWaveform.line(peaks: peaks, width: 100).count, 100)
        XCTAssertEqual(BlockWaveform.line(peaks: peaks, width: 0), "")
        XCTAssertEqual(BlockWaveform.line(peaks: peaks, width: 100).last, "█")
    }
}
