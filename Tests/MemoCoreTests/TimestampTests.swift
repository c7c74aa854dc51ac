import MemoCore
import XCTest

/// Expected strings were computed outside Swift (`date -u -d @SECONDS`).
final class TimestampTests: XCTestCase {
    func testEpochIsMidnightJanuaryFirst1970() {
        XCTAssertEqual(Timestamp(secondsSince1970: 0).rfc3339, "1970-01-01T00:00:00Z")
    }

    func testKnownInstants() {
        let known: [(Double, String)] = [
            (1_795_959_645, "2026-11-29T13:40:45Z"),
            (1_795_958_644, "2026-11-29T13:24:04Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"),
            (59, "1970-01-01T00:00:59Z"),
            (3_600 * 9 + 60 * 5 + 7, "1970-01-01T09:05:07Z"),
        ]
        for (seconds, expected) in known {
            XCTAssertEqual(Timestamp(secondsSince1970: seconds).rfc3339, expected, "\(seconds)")
        }
    }

    func testFractionsAreTruncatedNotRounded() {
        XCTAssertEqual(Timestamp(secondsSince1970: 1_795_959_645.999).rfc3339, "2026-11-29T13:40:45Z")
        XCTAssertEqual(Timestamp(secondsSince1970: 59.5).rfc3339, "1970-01-01T00:00:59Z")
    }

    func testInstantsBeforeTheEpochRoundDown() {
        XCTAssertEqual(Timestamp(secondsSince1970: -1).rfc3339, "1969-12-31T23:59:59Z")
        // -0.5 s is still in the last second of 1969, not at the epoch.
        XCTAssertEqual(Timestamp(secondsSince1970: -0.5).rfc3339, "1969-12-31T23:59:59Z")
    }

    func testRenderingIsUTCWhateverTheLocalTimeZone() {
        let saved = getenv("TZ").map { String(cString: $0) }
        // A POSIX TZ string, so the test needs no tzdata: Korea, UTC+9.
        setenv("TZ", "KST-9", 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        XCTAssertEqual(Timestamp(secondsSince1970: 0).rfc3339, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(secondsSince1970: 0).localMinute, "1970-01-01 09:00")
    }

    func testFormatIsFixedWidth() {
        for seconds in stride(from: 0.0, to: 4_102_444_800, by: 86_400 * 97 + 3_671) {
            let text = Timestamp(secondsSince1970: seconds).rfc3339
            XCTAssertEqual(text.count, 20, text)
            XCTAssertTrue(text.hasSuffix("Z"), text)
        }
    }

    func testAddingAndOrdering() {
        let start = Timestamp(secondsSince1970: 100)
        XCTAssertEqual(start.adding(seconds: 2.5), Timestamp(secondsSince1970: 102.5))
        XCTAssertEqual(start.adding(seconds: -100).rfc3339, "1970-01-01T00:00:00Z")
        XCTAssertLessThan(start, start.adding(seconds: 0.001))
        XCTAssertFalse(start < start)
    }

    func testDamagedValuesPrintAsExtremeDatesInsteadOfTrapping() {
        XCTAssertEqual(Timestamp(secondsSince1970: .infinity).rfc3339, "9999-12-31T23:59:59Z")
        XCTAssertEqual(Timestamp(secondsSince1970: -.infinity).rfc3339, "0001-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(secondsSince1970: .nan).rfc3339, "0001-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(secondsSince1970: 1e300).rfc3339, "9999-12-31T23:59:59Z")
        XCTAssertFalse(Timestamp(secondsSince1970: .infinity).localMinute.isEmpty)
    }

    func testJSONTimesAreRFC3339WithMilliseconds() {
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: 1_800_000_000.25)), .string("2027-01-15T08:00:00.250Z"))
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: 1_800_000_000.9996)), .string("2027-01-15T08:00:00.999Z"),
                       "truncated, never rolled into the next second")
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: 0)), .string("1970-01-01T00:00:00.000Z"))
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: -0.5)), .string("1969-12-31T23:59:59.500Z"))
        XCTAssertEqual(JSON.optional(Timestamp(secondsSince1970: 1.005)), .string("1970-01-01T00:00:01.004Z"),
                       "1.005 is stored as 1.00499…")
        XCTAssertEqual(JSON.optional(nil as Timestamp?), .null)
    }

    func testJSONTimesOfValuesOutOfRangeAreClampedWithoutAFraction() {
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: .infinity)), .string("9999-12-31T23:59:59.000Z"))
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: .nan)), .string("0001-01-01T00:00:00.000Z"))
        XCTAssertEqual(JSON.time(Timestamp(secondsSince1970: 1e300)), .string("9999-12-31T23:59:59.000Z"))
    }
}
