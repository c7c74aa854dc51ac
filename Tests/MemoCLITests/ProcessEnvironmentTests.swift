import Foundation
@testable import MemoCLI
import XCTest

/// The environment as memoapp reads it at start, against Foundation's reading.
final class ProcessEnvironmentTests: XCTestCase {
    private let names = ["MEMOAPP_TEST_EQUALS", "MEMOAPP_TEST_EMPTY", "MEMOAPP_TEST_한글"]

    override func tearDown() {
        for name in names { unsetenv(name) }
    }

    func testSplitsAtTheFirstEqualsSignAndKeepsEveryByteAfterIt() {
        setenv("MEMOAPP_TEST_EQUALS", "a=b==c", 1)
        setenv("MEMOAPP_TEST_EMPTY", "", 1)
        setenv("MEMOAPP_TEST_한글", "값 = 😀", 1)
        let environment = ProcessEnvironment.current
        XCTAssertEqual(environment["MEMOAPP_TEST_EQUALS"], "a=b==c")
        XCTAssertEqual(environment["MEMOAPP_TEST_EMPTY"], "")
        XCTAssertEqual(environment["MEMOAPP_TEST_한글"], "값 = 😀")
    }

    func testHoldsWhatFoundationSees() {
        setenv("MEMOAPP_TEST_EQUALS", "x=y", 1)
        XCTAssertEqual(ProcessEnvironment.current, ProcessInfo.processInfo.environment)
    }
}
