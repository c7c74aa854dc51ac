import XCTest
@testable import VoiceMemos

final class WaveformPeaksTests: XCTestCase {
    private let input: [Int16] = (0..<10_000).map { Int16(truncatingIfNeeded: ($0 * 7919) % 60000 - 30000) }

    private var stored: WaveformPeaks {
        WaveformPeaks(samplesPerPixel: 32, frames: Int64(input.count),
                      values: Reference.peaks(samples: input, channels: 1, samplesPerPixel: 32))
    }

    func testResamplingToAMultipleIsExact() {
        for size in [64, 96, 256, 10_000, 20_000] {
            let peaks = stored.resampled(toSamplesPerPixel: size)
            XCTAssertEqual(peaks.samplesPerPixel, size)
            XCTAssertEqual(peaks.values, Reference.peaks(samples: input, channels: 1, samplesPerPixel: size), "\(size)")
        }
    }

    func testResamplingToOtherSizesCoversEachBlockAndItsEdgesOnly() {
        let peaks = stored.resampled(toSamplesPerPixel: 100)
        let exact = Reference.peaks(samples: input, channels: 1, samplesPerPixel: 100)
        XCTAssertEqual(peaks.pixelCount, 100)
        for pixel in 0..<peaks.pixelCount {
            // Never narrower than the truth.
            XCTAssertLessThanOrEqual(peaks.values[2 * pixel], exact[2 * pixel])
            XCTAssertGreaterThanOrEqual(peaks.values[2 * pixel + 1], exact[2 * pixel + 1])
            // Never wider than the stored blocks that overlap it.
            let first = pixel * 100 / 32
            let last = min((pixel * 100 + 99) / 32, stored.pixelCount - 1)
            let low = (first...last).map { stored.values[2 * $0] }.min()!
            XCTAssertEqual(peaks.values[2 * pixel], low)
        }
    }

    func testFinerThanStoredKeepsTheStoredSize() {
        XCTAssertEqual(stored.resampled(toSamplesPerPixel: 8), stored)
        XCTAssertEqual(stored.resampled(toWidth: 100_000), stored)
    }

    func testWidthGivesAtMostThatManyPixels() {
        for width in [1, 3, 7, 100, 312, 313] {
            let peaks = stored.resampled(toWidth: width)
            XCTAssertLessThanOrEqual(peaks.pixelCount, width)
            XCTAssertGreaterThan(peaks.pixelCount, 0)
        }
        XCTAssertEqual(stored.resampled(toWidth: 1).values, [input.min()!, input.max()!])
    }

    func testBlobRoundTripsLittleEndian() {
        let peaks = WaveformPeaks(samplesPerPixel: 4, frames: 8, values: [-32768, 32767, -1, 258])
        XCTAssertEqual(peaks.blob, [0x00, 0x80, 0xFF, 0x7F, 0xFF, 0xFF, 0x02, 0x01])
        XCTAssertEqual(WaveformPeaks(samplesPerPixel: 4, frames: 8, blob: peaks.blob), peaks)
    }

    func testMalformedBlobIsRejected() {
        XCTAssertNil(WaveformPeaks(samplesPerPixel: 4, frames: 8, blob: [1, 2, 3]))
        XCTAssertNil(WaveformPeaks(samplesPerPixel: 0, frames: 8, blob: []))
    }
}
