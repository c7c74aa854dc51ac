import Foundation
import MemoCore
import XCTest

/// `Timestamp.exactRFC3339` and `Timestamp(rfc3339:)`: every stored time comes
/// back bit for bit.
final class ExactTimestampTests: XCTestCase {
    private func roundTrip(_ seconds: Double, file: StaticString = #filePath, line: UInt = #line) {
        let text = Timestamp(secondsSince1970: seconds).exactRFC3339
        guard let back = Timestamp(rfc3339: text) else {
            return XCTFail("\(seconds): \(text) does not read back", file: file, line: line)
        }
        XCTAssertEqual(back.secondsSince1970.bitPattern, seconds.bitPattern, "\(seconds) → \(text) → \(back.secondsSince1970)",
                       file: file, line: line)
    }

    func testKnownTimesAndTheirTexts() {
        let known: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"),
            (1_795_958_644, "2026-11-29T13:24:04Z"),
            (1_795_958_644.25, "2026-11-29T13:24:04.25Z"),
            (1_795_958_644.1234567, "2026-11-29T13:24:04.1234567Z"),
            (0.00001, "1970-01-01T00:00:00.00001Z"),
            (-0.5, "1969-12-31T23:59:59.5Z"),
            (-12.25, "1969-12-31T23:59:47.75Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (951_782_400.5, "2000-02-29T00:00:00.5Z"),
        ]
        for (seconds, text) in known {
            XCTAssertEqual(Timestamp(secondsSince1970: seconds).exactRFC3339, text, "\(seconds)")
            XCTAssertEqual(Timestamp(rfc3339: text)?.secondsSince1970, seconds, text)
        }
    }

    func testWallClockReadingsRoundTripExactly() {
        // What SystemWallClock stores: whole seconds plus nanoseconds / 1e9.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let whole = Double(Int64.random(in: 0...4_102_444_800, using: &generator))
            let nanoseconds = Double(Int64.random(in: 0..<1_000_000_000, using: &generator))
            roundTrip(whole + nanoseconds / 1e9)
        }
    }

    func testArbitraryDoublesInTheYearsOneToNineThousandRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            roundTrip(Double.random(in: -62_135_596_800...253_402_300_799, using: &generator))
            roundTrip(Double.random(in: -10...10, using: &generator))
        }
        for seconds in [Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1e-300, -1e-300,
                        0.1, -0.1, 253_402_300_799.999, -62_135_596_800, 1_795_958_644.0000001,
                        Double(Int64(1) << 37) + 0.5, 0.000_000_1] {
            roundTrip(seconds)
        }
    }

    func testOffsetsAndLowerCaseLettersAreRead() {
        XCTAssertEqual(Timestamp(rfc3339: "2026-11-29T22:24:04.5+09:00")?.secondsSince1970, 1_795_958_644.5)
        XCTAssertEqual(Timestamp(rfc3339: "2026-11-29t13:24:04z")?.secondsSince1970, 1_795_958_644)
        XCTAssertEqual(Timestamp(rfc3339: "2026-11-29T08:24:04-05:00")?.secondsSince1970, 1_795_958_644)
        XCTAssertEqual(Timestamp(rfc3339: "2026-11-29T13:24:04.500000Z")?.secondsSince1970, 1_795_958_644.5)
    }

    func testMalformedTextsAreRefused() {
        for text in ["", "2026-11-29", "2026-11-29T13:24:04", "2026-11-29 13:24:04Z", "2026-11-29T13:24Z",
                     "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
                     "2026-11-29T24:00:00Z", "2026-11-29T13:60:00Z", "2026-11-29T13:24:60Z",
                     "2026-11-29T13:24:04.Z", "2026-11-29T13:24:04,5Z", "2026-11-29T13:24:04ZZ",
                     "2026-11-29T13:24:04+0900", "2026-11-29T13:24:04+24:00", "0000-01-01T00:00:00Z",
                     "+2026-11-29T13:24:04Z", "２０２６-11-29T13:24:04Z", " 2026-11-29T13:24:04Z",
                     "2026-11-29T13:24:04." + String(repeating: "1", count: 401) + "Z", "1e9"] {
            XCTAssertNil(Timestamp(rfc3339: text), text)
        }
        XCTAssertNotNil(Timestamp(rfc3339: "2024-02-29T00:00:00Z"), "a leap day")
        XCTAssertNil(Timestamp(rfc3339: "1900-02-29T00:00:00Z"), "1900 was not a leap year")
        XCTAssertNotNil(Timestamp(rfc3339: "2000-02-29T00:00:00Z"), "2000 was")
    }

    func testJSONOfAnExactTime() {
        XCTAssertEqual(JSON.exactTime(Timestamp(secondsSince1970: 0.5)), .string("1970-01-01T00:00:00.5Z"))
        XCTAssertEqual(JSON.exactTime(nil as Timestamp?), .null)
    }
}
