@testable import HTTPServer
import XCTest

/// Path and query decoding before any handler runs.
final class RequestTargetTests: XCTestCase {
    private func segments(_ path: String) throws -> [String] {
        try RequestTarget.pathSegments(Array(path.utf8))
    }

    func testPathsSplitIntoDecodedSegments() throws {
        XCTAssertEqual(try segments("/"), [])
        XCTAssertEqual(try segments("/api/v1/todos/7"), ["api", "v1", "todos", "7"])
        XCTAssertEqual(try segments("/a/b/"), ["a", "b", ""])
        XCTAssertEqual(try segments("/%ED%9A%8C%EC%9D%98"), ["회의"])
        XCTAssertEqual(try segments("/a%20b/c+d"), ["a b", "c+d"], "+ is a plus in a path")
        XCTAssertEqual(try segments("/%2e%2e.txt"), ["...txt"])
        XCTAssertEqual(try segments("/...") , ["..."])
    }

    func testMalformedOrDangerousPathsAre400() {
        for path in ["", "api", "*", "http://x/", "/a%", "/a%2", "/a%zz", "/a%g0", "/%ff", "/%c3", "/%ED%A0%80",
                     "/a%00b", "/a%0Ab", "/%7f", "/a/../b", "/..", "/.", "/a/./b", "/%2e%2e/x", "/%2E/x", "/a%2Fb",
                     "/a b", "/a\tb", "/\u{7F}", "/é", "/a#b"] {
            XCTAssertThrowsError(try segments(path), path) { error in
                XCTAssertEqual((error as? HTTPError)?.status, 400, path)
            }
        }
    }

    func testQueryComponentsDecodeStrictly() throws {
        XCTAssertEqual(try RequestTarget.queryComponent(Array("a%20b%2Bc".utf8)), "a b+c")
        XCTAssertEqual(try RequestTarget.queryComponent(Array("%EA%B0%80".utf8)), "가")
        XCTAssertEqual(try RequestTarget.queryComponent(Array("".utf8)), "")
        XCTAssertEqual(try RequestTarget.queryComponent(Array("line%0Abreak".utf8)), "line\nbreak")
        for bad in ["%", "%4", "%zz", "%ff", "a%00"] {
            XCTAssertThrowsError(try RequestTarget.queryComponent(Array(bad.utf8)), bad)
        }
    }
}
