import HTTPServer
import XCTest

final class EntityTagTests: XCTestCase {
    func testATagIsQuotedAndFollowsTheBytes() {
        let tag = EntityTag.of(Array("a".utf8))
        XCTAssertEqual(tag, "\"af63dc4c8601ec8c\"", "FNV-1a 64 of \"a\"")
        XCTAssertNotEqual(EntityTag.of(Array("b".utf8)), tag)
        XCTAssertEqual(EntityTag.of([]), "\"cbf29ce484222325\"")
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
