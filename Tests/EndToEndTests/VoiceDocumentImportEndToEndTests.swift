import Foundation
import TestSupport
import XCTest

/// `memoapp import` of an export whose voice memo metadata was edited: the
/// document is held to the audio it arrives with, and a disagreement changes
/// nothing (exit 65, naming the JSON path).
final class VoiceDocumentImportEndToEndTests: XCTestCase {
    /// An exported home with one voice memo; returns the export as JSON and the home's voice folder.
    private func exportedHome(_ homes: TransferHomes) throws -> (document: [String: Any], voice: String) {
        let source = homes.home("source")
        source.object("voice", "import", TransferHomes.fixtures + "/chord-stereo-22k.flac")
        return (source.exportObject(), source.home + "/voice")
    }

    /// `document` with the first voice memo's `key` set to `value` (its peaks dropped).
    private func edited(_ document: [String: Any], _ key: String, _ value: Any) throws -> Data {
        var document = document
        var memos = try XCTUnwrap(document["voice_memos"] as? [[String: Any]])
        memos[0][key] = value
        memos[0]["peaks"] = NSNull()
        document["voice_memos"] = memos
        return try JSONSerialization.data(withJSONObject: document)
    }

    func testALengthThatIsNotTheAudiosIsRefusedNamingItsPathAndNothingIsStored() throws {
        let homes = TransferHomes()
        let (document, voice) = try exportedHome(homes)
        let edits: [(String, Any, String)] = [
            ("frames", Int64(1_000_000_000_000_000), "$.voice_memos[0].frames: 1000000000000000, but its audio"),
            ("frames", Int64.max, "$.voice_memos[0].frames: 9223372036854775807 is outside 1...9007199254740992"),
            ("sample_rate", 8000, "$.voice_memos[0].sample_rate: 8000, but its audio"),
            ("duration", 62_500_000_000.0, "$.voice_memos[0].duration: 62500000000.0 s, but its audio"),
        ]
        for (key, value, words) in edits {
            let target = homes.home("target-\(key)-\(words.count)")
            let path = homes.folder.appending("edited.json")
            try edited(document, key, value).write(to: URL(fileURLWithPath: path))
            let result = target.run(["import", path, "--audio", voice, "--json"])
            XCTAssertEqual(result.status, 65, "\(key): \(result.stderr)")
            XCTAssertEqual(result.errorCode, "bad_input", key)
            XCTAssertTrue(result.stderr.contains(words), result.stderr)
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(target.run(["voice", "list", "--json"]).array().count, 0, key)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: target.home + "/voice")) ?? []
            XCTAssertEqual(files, [], "\(key): \(files)")
        }
    }

    func testTheDocumentAsExportedImportsWithTheAudiosLength() throws {
        let homes = TransferHomes()
        let (document, voice) = try exportedHome(homes)
        let target = homes.home("target")
        let path = homes.folder.appending("export.json")
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        let result = target.run(["import", path, "--audio", voice])
        XCTAssertEqual(result.status, 0, result.stderr)
        let memos = target.run(["voice", "list", "--json"]).array()
        XCTAssertEqual(memos.first?["frames"] as? Int, 33075)
        XCTAssertEqual(target.run(["voice", "verify"]).status, 0)
    }
}
