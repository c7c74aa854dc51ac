import MemoCore
import XCTest

final class TagsTests: XCTestCase {
    func testTagsAreTrimmedLoseALeadingHashAndRepeatsInAnyCase() throws {
        XCTAssertEqual(try Tags.normalized([" work ", "#집", "Work", "WORK", "집", "📌"]), ["work", "집", "📌"])
    }

    func testEmptyTagsAndTagsWithSpacesOrCommasAreUsageErrors() {
        for bad in ["", "  ", "#", "two words", "a,b", "tab\there", "line\nbreak", "nul\0"] {
            XCTAssertThrowsError(try Tags.normalized(bad), bad) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, bad)
            }
        }
    }
}
