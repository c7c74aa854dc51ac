import HTTPServer
import XCTest

final class EntityTagTests: XCTestCase {
    func testATagIsQuotedAndFollowsTheBytes() {
        let tag = EntityTag.of(Array("a".utf8))
        XCTAssertEqual(tag, "\"af63dc4c8601ec8c\"", "FNV-1a 64 of \"a\"")
        XCTAssertNotEqual(EntityTag.of(Array("b".utf8)), tag)
        XCTAssertEqual(EntityTag.of([]), "\"cbf29ce484222325\"")
    }

    func testEveryTagHasSixteenLowercaseDigitsLeadingZerosIncluded() {
        var sawLeadingZero = false
        for length in 0..<400 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            let digits = String(hash, radix: 16)
            sawLeadingZero = sawLeadingZero || digits.count < 16
            XCTAssertEqual(EntityTag.of(bytes), "\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\"")
        }
        XCTAssertTrue(sawLeadingZero, "some input's hash starts with a zero digit")
    }

    func testListsNameTagsWeaklyOrByStar() {
        let tag = "\"af63dc4c8601ec8c\""
        XCTAssertTrue(EntityTag.list(tag, names: tag))
        XCTAssertTrue(EntityTag.list("\"x\", \t W/\"af63dc4c8601ec8c\" ", names: tag))
        XCTAssertTrue(EntityTag.list("*", names: tag))
        XCTAssertFalse(EntityTag.list("\"x\", \"y\"", names: tag))
        XCTAssertFalse(EntityTag.list("", names: tag))
    }
}
