import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// The frames a converting export and a trim report as they go: counted up
/// to the frames they write, so the bar ends at 100% with the work.
final class VoiceProgressTests: XCTestCase {
    private func checkReports(_ reports: [(Int64, Int64)], total: Int64, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(reports.isEmpty, "no progress reported", file: file, line: line)
        XCTAssertTrue(reports.allSatisfy { $0.1 == total && $0.0 <= total }, "\(reports)", file: file, line: line)
        XCTAssertEqual(reports.map(\.0), reports.map(\.0).sorted(), file: file, line: line)
        XCTAssertEqual(reports.last?.0, total, file: file, line: line)
    }

    func testAConvertingExportReportsEveryFrame() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        let output = try TemporaryFile(in: NSTemporaryDirectory(), purpose: "export")
        defer { output.discard() }
        var reports: [(Int64, Int64)] = []
        _ = try harness.store.writeAudio(id: memo.id, as: .wav, into: output.descriptor, shownPath: "out.wav") {
            reports.append(($0, $1))
        }
        checkReports(reports, total: memo.frames)
    }

    func testATrimReportsTheFramesOfItsSpan() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        var reports: [(Int64, Int64)] = []
        let trimmed = try harness.store.trim(id: memo.id, start: 0.5, end: 1.0) { reports.append(($0, $1)) }
        checkReports(reports, total: trimmed.frames)
        XCTAssertEqual(trimmed.frames, 11025)
    }
}
