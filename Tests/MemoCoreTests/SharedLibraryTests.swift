@testable import MemoCore
import XCTest

/// Libraries loaded on first use: the real ones resolve, and a missing
/// library or function is an error a user can act on.
final class SharedLibraryTests: XCTestCase {
    func testJanssonLoadsOnFirstUseAndParses() throws {
        XCTAssertNoThrow(try LibJansson.loaded())
        XCTAssertEqual(try JSON.parse(Array(#"{"a":[1,2.5,"x"]}"#.utf8)),
                       .object([("a", .array([.int(1), .double(2.5), .string("x")]))]))
    }

    func testAMissingLibraryNamesItselfAndItsDebianPackageInBothLanguages() {
        let result = LibJansson.load("libjansson-absent.so.4")
        guard case let .failure(error) = result else { return XCTFail("an absent library loaded") }
        XCTAssertEqual(error.kind, .internalFailure)
        for text in [error.message.en, error.message.ko] {
            XCTAssertTrue(text.contains("libjansson-absent.so.4"), text)
            XCTAssertTrue(text.contains("libjansson4"), text)
        }
        XCTAssertTrue(error.message.en.contains("reading JSON"), error.message.en)
    }

    func testALibraryLackingAFunctionNamesTheFunction() {
        // libm is in every process and has none of Jansson's functions.
        guard case let .failure(error) = LibJansson.load("libm.so.6") else {
            return XCTFail("libm passed for Jansson")
        }
        XCTAssertTrue(error.message.en.contains("json_loadb"), error.message.en)
        XCTAssertTrue(error.message.ko.contains("json_loadb"), error.message.ko)
    }
}
