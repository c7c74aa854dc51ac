@testable import HTTPServer
import XCTest

final class HeadersTests: XCTestCase {
    func testNamesCompareWithoutCaseAndRepeatsAreKept() {
        var headers: Headers = ["Content-Type": "text/plain"]
        headers.add("set-cookie", "a=1")
        headers.add("Set-Cookie", "b=2")
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers["CONTENT-TYPE"], "text/plain")
        XCTAssertEqual(headers.values(for: "SET-COOKIE"), ["a=1", "b=2"])
        XCTAssertNil(headers["Content-Typ"])
        headers.set("SET-COOKIE", "c=3")
        XCTAssertEqual(headers.values(for: "set-cookie"), ["c=3"])
        headers.remove("content-TYPE")
        XCTAssertFalse(headers.contains("Content-Type"))
        XCTAssertFalse(Headers.sameName("Straße", "STRASSE"), "only ASCII case folds")
    }

    func testFillingFromDefaultsKeepsTheResponsesOwnFields() {
        let own: Headers = ["cache-control": "max-age=60"]
        let filled = own.filling(from: ["Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
        XCTAssertEqual(filled.values(for: "Cache-Control"), ["max-age=60"])
        XCTAssertEqual(filled["X-Content-Type-Options"], "nosniff")
    }
}
