import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// Values from outside (times, widths, sizes) and stored values (frames,
/// rates, durations) at the ends of their types: each is refused or
/// answered, none traps.
final class OutsideValueTests: XCTestCase {
    private let extremes: [Int] = [Int.min, -1, 0, 1, 7, 33, Int(Int32.max), Int.max - 1, Int.max]

    func testTrimRefusesTimesBeyondTheMemoHoweverLargeAndChangesNothing() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        let spans: [(Double, Double)] = [
            (0, 576_460_752_303_424), (576_460_752_303_424, 576_460_752_303_425), (0, 1e300),
            (0, Double.greatestFiniteMagnitude), (1e-300, 1e308), (0, .infinity), (.nan, 1), (-0.0, -1),
        ]
        for (start, end) in spans {
            XCTAssertThrowsError(try harness.store.trim(id: memo.id, start: start, end: end), "\(start)–\(end)") {
                XCTAssertEqual(($0 as? MemoError)?.kind, .usage, "\(start)–\(end)")
            }
        }
        XCTAssertEqual(try harness.store.memo(id: memo.id), memo)
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
    }

    func testAFrameAtATimeIsOnlyEverAFrameTheModuleHolds() {
        XCTAssertEqual(AudioLimits.frame(atSeconds: 1.5, sampleRate: 16000), 24000)
        XCTAssertEqual(AudioLimits.frame(atSeconds: 0, sampleRate: 1), 0)
        for seconds in [576_460_752_303_424, 1e300, .infinity, .nan, -1] as [Double] {
            XCTAssertNil(AudioLimits.frame(atSeconds: seconds, sampleRate: 16000), "\(seconds)")
        }
        XCTAssertNil(AudioLimits.frame(atSeconds: 1, sampleRate: 0))
        XCTAssertEqual(AudioLimits.ceilingDivision(Int64.max, by: 1), Int64.max)
        XCTAssertEqual(AudioLimits.ceilingDivision(Int64.max, by: 2), Int64.max / 2 + 1)
        XCTAssertEqual(AudioLimits.ceilingDivision(0, by: 5), 0)
    }

    func testResamplingAnyRequestOfAnyStoredPeaksAnswersWithinTheStoredBlocks() {
        // Rows as a damaged or forged database could hold them.
        let rows = [
            WaveformPeaks(samplesPerPixel: 32, frames: Int64.max, values: [-5, 5, -7, 7, -1, 1]),
            WaveformPeaks(samplesPerPixel: Int.max, frames: Int64.max, values: [-5, 5, -7, 7]),
            WaveformPeaks(samplesPerPixel: 1, frames: -10, values: [-5, 5]),
            WaveformPeaks(samplesPerPixel: 32, frames: 100, values: []),
        ]
        for peaks in rows {
            for request in extremes {
                let bySize = peaks.resampled(toSamplesPerPixel: request)
                let byWidth = peaks.resampled(toWidth: request)
                XCTAssertLessThanOrEqual(bySize.pixelCount, max(1, peaks.pixelCount), "\(peaks) size \(request)")
                XCTAssertLessThanOrEqual(byWidth.pixelCount, max(1, peaks.pixelCount), "\(peaks) width \(request)")
                _ = PeaksDocument(peaks: byWidth, sampleRate: 16000, bits: 8).jsonText
                _ = BlockWaveform.line(peaks: peaks, width: request)
            }
        }
    }

    func testPicturesOfAnySizeAreClampedAndTheStoreRefusesSizesOutsideTheRange() throws {
        let peaks = WaveformPeaks(samplesPerPixel: 32, frames: 320, values: Array(repeating: [-100, 100], count: 10).flatMap { $0 })
        for size in extremes {
            let svg = WaveformPicture.svg(peaks: peaks, width: size, height: size, title: "x")
            XCTAssertTrue(svg.contains("<svg"), "\(size)")
        }
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        for (width, height) in [(0, 200), (100_001, 200), (Int.max, 200), (1200, 1), (1200, Int.max), (Int.min, Int.min)] {
            XCTAssertThrowsError(try harness.store.waveformPicture(id: memo.id, width: width, height: height)) {
                XCTAssertEqual(($0 as? MemoError)?.kind, .usage, "\(width)×\(height)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.folder.appending("w.svg")))
    }

    func testDurationsOfAnyStoredLengthPrintAsAClock() {
        XCTAssertEqual(TimeOffset.clock(75.9), "1:15")
        XCTAssertEqual(TimeOffset.clock(3723), "1:02:03")
        for seconds in [9.3e18, 1e300, Double.greatestFiniteMagnitude, .infinity, .nan, -5] {
            _ = TimeOffset.clock(seconds)
        }
        XCTAssertEqual(TimeOffset.clock(.nan), "0:00")
        XCTAssertTrue(TimeOffset.clock(1e300).hasSuffix(":07"), TimeOffset.clock(1e300))
    }
}
