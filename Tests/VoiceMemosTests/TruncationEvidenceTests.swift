import XCTest
@testable import VoiceMemos

final class TruncationEvidenceTests: XCTestCase {
    func testDataChunkLongerThanTheFileIsTruncation() {
        XCTAssertTrue(TruncationEvidence.isTruncated(log: "RIFF : 64036 (should be 42688)\ndata : 64000 (should be 42652)\nEnd\n"))
        XCTAssertTrue(TruncationEvidence.isTruncated(log: " SSND : 96008 (should be 49920)\n"))
        XCTAssertTrue(TruncationEvidence.isTruncated(log: "*** Frame count read from 'COMM' chunk (16000) not equal to frame count\n"))
    }

    func testStreamedLengthsAndShorterClaimsAreNot() {
        XCTAssertFalse(TruncationEvidence.isTruncated(log: "data : 4294967295 (should be 42652)\n"))
        XCTAssertFalse(TruncationEvidence.isTruncated(log: "data : 0 (should be 42652)\n"))
        XCTAssertFalse(TruncationEvidence.isTruncated(log: "data : 100 (should be 200)\n"))
        // Only the audio data chunk counts, not the RIFF size.
        XCTAssertFalse(TruncationEvidence.isTruncated(log: "RIFF : 64036 (should be 42688)\ndata : 42000\n"))
        XCTAssertFalse(TruncationEvidence.isTruncated(log: ""))
    }
}
