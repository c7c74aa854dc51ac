import Foundation
import TestSupport
import XCTest

/// The quick version of scripts/torture's part 9, run as it is (one copy of
/// the torture logic): a restore racing voice import, rm, trim, record and a
/// second restore loses no file and leaves no orphan. The part prints its
/// random seed; a failure keeps its evidence in the scratch folder.
final class TortureRaceEndToEndTests: XCTestCase {
    func testARestoreRacingEveryVoiceWriterLosesNothing() throws {
        let result = try TorturePart.runQuick("race.py")
        XCTAssertEqual(result.status, "ok", result.summary)
        XCTAssertTrue(result.summary.contains("lost files 0, orphans 0"), result.summary)
    }
}

/// Runs one of scripts/torture.d's parts with --quick on the binary under test.
enum TorturePart {
    struct Outcome {
        let status: String
        let summary: String
    }

    static func runQuick(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let work = TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/torture.d/" + script).path, "--quick",
                             "--binary", Memoapp.binaryPath, "--work", work.appending("part")]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorText = Locked(Data())
        let reader = Thread { errorText.withValue { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorText.current.isEmpty && !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        let lines = String(decoding: stdout, as: UTF8.self).split(separator: "\n")
        guard let last = lines.last(where: { $0.hasPrefix("{\"part\"") }),
              let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] else {
            XCTFail("\(script) printed no result: \(String(decoding: errorText.current, as: UTF8.self).suffix(2000))",
                    file: file, line: line)
            return Outcome(status: "none", summary: "")
        }
        let summary = "\(object["note"] ?? "") (seed \(object["seed"] ?? "?"))\n"
            + String(decoding: errorText.current, as: UTF8.self).suffix(3000)
        return Outcome(status: object["status"] as? String ?? "none", summary: summary)
    }
}
