@testable import Notes
import XCTest

/// The `tags` column: tags joined by spaces, and split back.
final class TagColumnTests: XCTestCase {
    func testSplittingGivesBackTheJoinedTags() {
        let lists: [[String]] = [[], ["work"], ["회의", "work", "🙂", "a-b_c"], ["\u{301}accent", "e\u{301}"], ["x", "y"], ["work", "\u{301}accent", "\u{20DD}"]]
        for tags in lists {
            XCTAssertEqual(TagColumn.split(TagColumn.joined(tags)), tags, "\(tags)")
        }
    }

    func testEmptyPiecesAreSkipped() {
        XCTAssertEqual(TagColumn.split("  a   b "), ["a", "b"])
        XCTAssertEqual(TagColumn.split(" "), [])
        XCTAssertEqual(TagColumn.split(""), [])
    }
}
