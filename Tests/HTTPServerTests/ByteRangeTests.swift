@testable import HTTPServer
import XCTest

final class ByteRangeTests: XCTestCase {
    private func select(_ header: String?, _ length: UInt64 = 1000) -> RangeSelection {
        RangeSelection.select(rangeHeader: header, length: length)
    }

    func testSingleRangesInEachForm() {
        XCTAssertEqual(select("bytes=0-499"), .part(0...499))
        XCTAssertEqual(select("bytes=500-"), .part(500...999))
        XCTAssertEqual(select("bytes=-200"), .part(800...999))
        XCTAssertEqual(select("bytes=-5000"), .part(0...999), "a suffix longer than the file is all of it")
        XCTAssertEqual(select("bytes=900-5000"), .part(900...999), "the last position is clipped")
        XCTAssertEqual(select("bytes=999-999"), .part(999...999))
        XCTAssertEqual(select("Bytes=1-2"), .part(1...2), "the unit is case-insensitive")
        XCTAssertEqual(select("bytes=0-99999999999999999999999"), .part(0...999), "a huge last position saturates")
    }

    func testRangesPastTheEndAreUnsatisfiable() {
        XCTAssertEqual(select("bytes=1000-"), .unsatisfiable)
        XCTAssertEqual(select("bytes=1000-2000"), .unsatisfiable)
        XCTAssertEqual(select("bytes=99999999999999999999-"), .unsatisfiable)
        XCTAssertEqual(select("bytes=-0"), .unsatisfiable)
        XCTAssertEqual(select("bytes=0-", 0), .unsatisfiable)
        XCTAssertEqual(select("bytes=-1", 0), .unsatisfiable)
    }

    func testWhatIsNotOneWellFormedByteRangeGetsTheWholeBody() {
        for header in [nil, "", "bytes=", "bytes=-", "bytes=a-b", "bytes=5-1", "bytes=0-1,4-5", "items=0-1",
                       "bytes=1-2-3", "bytes=+1-2", "bytes=0x10-", "bytes 0-1"] {
            XCTAssertEqual(select(header), .whole, header ?? "nil")
        }
    }
}
