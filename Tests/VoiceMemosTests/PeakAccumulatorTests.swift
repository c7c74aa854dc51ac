import XCTest
@testable import VoiceMemos

final class PeakAccumulatorTests: XCTestCase {
    private func samples(_ count: Int, channels: Int = 1) -> [Int16] {
        (0..<count * channels).map { Int16(truncatingIfNeeded: ($0 * 7919) % 65536 - 32768) }
    }

    private func accumulate(_ samples: [Int16], channels: Int, blocks: [Int], spp: Int = 32,
                            maximumPixels: Int = 1 << 20) -> (WaveformPeaks, Int32) {
        var accumulator = PeakAccumulator(samplesPerPixel: spp, maximumPixels: maximumPixels)
        var offset = 0
        var blockIndex = 0
        samples.withUnsafeBufferPointer { buffer in
            while offset < samples.count / channels {
                let count = min(blocks[blockIndex % blocks.count], samples.count / channels - offset)
                accumulator.add(buffer.baseAddress! + offset * channels, frameCount: count, channels: channels)
                offset += count
                blockIndex += 1
            }
        }
        let peak = accumulator.peakMagnitude
        return (accumulator.finish(), peak)
    }

    func testMonoPeaksEqualThePlainComputationWhateverTheBlocking() {
        let input = samples(10_001)
        let expected = Reference.peaks(samples: input, channels: 1, samplesPerPixel: 32)
        for blocks in [[1], [31, 33], [10_001], [4096]] {
            let (peaks, _) = accumulate(input, channels: 1, blocks: blocks)
            XCTAssertEqual(peaks.values, expected, "blocks \(blocks)")
            XCTAssertEqual(peaks.frames, 10_001)
            XCTAssertEqual(peaks.samplesPerPixel, 32)
        }
    }

    func testChannelsAreMixedAsTheTruncatedMean() {
        // Left 3, right -4: the mean -0.5 truncates to 0, as audiowaveform's C integer division does.
        var accumulator = PeakAccumulator(samplesPerPixel: 2)
        let input: [Int16] = [3, -4, 3, -4]
        input.withUnsafeBufferPointer { accumulator.add($0.baseAddress!, frameCount: 2, channels: 2) }
        XCTAssertEqual(accumulator.finish().values, [0, 0])
        for channels in [2, 3, 6] {
            let input = samples(3000, channels: channels)
            let (peaks, _) = accumulate(input, channels: channels, blocks: [700])
            XCTAssertEqual(peaks.values, Reference.peaks(samples: input, channels: channels, samplesPerPixel: 32),
                           "\(channels) channels")
        }
    }

    func testPeakMagnitudeSeesEveryChannelBeforeMixing() {
        // Opposite full-scale channels mix to silence, yet the peak is full scale.
        let input: [Int16] = [Int16.min, Int16.max, 100, -100]
        let (peaks, peak) = accumulate(input, channels: 2, blocks: [2])
        XCTAssertEqual(peak, 32768)
        XCTAssertEqual(peaks.values, [0, 0])
        let (_, monoPeak) = accumulate([5, -7, 3], channels: 1, blocks: [3])
        XCTAssertEqual(monoPeak, 7)
    }

    func testMergingWhenFullGivesExactlyTheDoubledBlockSize() {
        let input = samples(5000)
        let (merged, _) = accumulate(input, channels: 1, blocks: [333], spp: 4, maximumPixels: 64)
        // 5000 frames at 4 per pixel = 1250 pixels: three doublings to 32 keep it under 64 pairs? No: 157 > 64, so 128.
        XCTAssertLessThanOrEqual(merged.pixelCount, 64)
        XCTAssertEqual(merged.values,
                       Reference.peaks(samples: input, channels: 1, samplesPerPixel: merged.samplesPerPixel))
        XCTAssertEqual(merged.samplesPerPixel, 128)
    }

    func testNoFramesGiveNoPeaks() {
        var accumulator = PeakAccumulator()
        XCTAssertEqual(accumulator.finish().values, [])
        XCTAssertEqual(accumulator.peakMagnitude, 0)
    }
}
