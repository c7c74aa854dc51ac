import Foundation
import MemoCore
@testable import MemoKit
import Notes
import Onboarding
import TestSupport
import VoiceMemos
import XCTest

/// The (done, total) figures the use cases hand their progress callbacks:
/// they only grow, never pass the total, and end on it, so a bar reaches
/// 100% exactly when the work is done.
final class ProgressReportTests: XCTestCase {
    private struct Clock: WallClock {
        func now() -> Timestamp { Timestamp(secondsSince1970: 1_800_000_000) }
    }

    private let folder = TemporaryDirectory()

    private func workspace(_ name: String, todos: Int = 0) throws -> Workspace {
        let workspace = Workspace(home: DataHome(path: folder.appending(name)), clock: Clock())
        _ = try workspace.onboardingStore().apply(.skip, at: Clock().now())
        for index in 0..<todos {
            _ = try workspace.todoStore().add(NewTodo(title: "할 일 \(index)", note: nil, priority: nil, tags: [], due: nil))
        }
        _ = try workspace.memoStore().add(NewMemo(text: "a memo"))
        return workspace
    }

    private func checkReports(_ reports: [(Int64, Int64)], file: StaticString = #filePath, line: UInt = #line) {
        guard let last = reports.last else { return XCTFail("no progress reported", file: file, line: line) }
        XCTAssertEqual(last.0, last.1, "ends on the total", file: file, line: line)
        XCTAssertTrue(reports.allSatisfy { $0.1 == last.1 && $0.0 <= $0.1 && $0.0 >= 0 }, "\(reports)", file: file, line: line)
        XCTAssertEqual(reports.map(\.0), reports.map(\.0).sorted(), "only grows", file: file, line: line)
    }

    func testDoctorReportsEachCheckAndEndsOnTheTotal() throws {
        let workspace = try self.workspace("home", todos: 2)
        var reports: [(Int64, Int64)] = []
        let report = DoctorExamination.run(home: workspace.home) { reports.append(($0, $1)) }
        XCTAssertEqual(report.checks.count, DoctorExamination.checkCount, "the total counts every check")
        checkReports(reports)
        XCTAssertEqual(reports.last?.1, Int64(DoctorExamination.checkCount) * DoctorExamination.progressUnitsPerCheck)

        var missingReports: [(Int64, Int64)] = []
        let missing = DoctorExamination.run(home: DataHome(path: folder.appending("missing"))) { missingReports.append(($0, $1)) }
        XCTAssertEqual(missing.checks.count, DoctorExamination.checkCount, "skipped checks count too")
        checkReports(missingReports)
    }

    func testADocumentImportReportsEveryItem() throws {
        let source = try workspace("source", todos: 5)
        let document = try ExportDocument.make(connection: source.database(), exportedAt: Clock().now()).serializedBytes
        for target in [try workspace("empty target"), try workspace("busy target", todos: 1)] {
            var importer = try DocumentImport(workspace: target, audioFolders: [])
            var reports: [(Int64, Int64)] = []
            importer.progress = { reports.append((Int64($0), Int64($1))) }
            _ = try importer.run(.bytes(document), name: "export")
            checkReports(reports)
            XCTAssertEqual(reports.count, 6, "five to-dos and a memo")
        }
    }

    func testBackupVerifyAndRestoreReportTheirFiles() throws {
        let source = try workspace("source", todos: 3)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fixtures/audio").path
        for name in ["beep.mp3", "chord-stereo-22k.flac"] {
            _ = try CodecWarnings.silenced { _ in try source.voiceStore().importFile(at: fixtures + "/" + name, options: ImportOptions()) }
        }
        let backupFolder = folder.appending("backup")
        var written: [(Int64, Int64)] = []
        _ = try BackupWriter(workspace: source, destination: backupFolder).write { written.append((Int64($0), Int64($1))) }
        checkReports(written)
        XCTAssertEqual(written.count, 2, "each audio file copied")

        var checked: [(Int64, Int64)] = []
        let backup = try VerifiedBackup.verify(backupFolder) { checked.append((Int64($0), Int64($1))) }
        checkReports(checked)
        XCTAssertEqual(checked.count, 4, "the database file, two audio files, then the database's own checks")

        let target = Workspace(home: DataHome(path: folder.appending("restored")), clock: Clock())
        var restored: [(Int64, Int64)] = []
        let result = try Restorer(workspace: target, backup: backup, force: false).run { restored.append((Int64($0), Int64($1))) }
        XCTAssertNil(result.problem)
        checkReports(restored)
        XCTAssertEqual(restored.count, 2, "each audio file installed")
    }
}
