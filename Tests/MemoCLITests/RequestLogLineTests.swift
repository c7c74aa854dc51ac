#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import MemoCLI
import XCTest

final class RequestLogLineTests: XCTestCase {
    func testOnlyTheNullDeviceCountsAsNull() throws {
        let null = open("/dev/null", O_WRONLY)
        XCTAssertGreaterThanOrEqual(null, 0)
        defer { close(null) }
        XCTAssertTrue(RequestLogLine.isNullDevice(null))

        // Another character device, a file and a pipe are read by someone.
        let zero = open("/dev/zero", O_WRONLY)
        defer { close(zero) }
        XCTAssertFalse(RequestLogLine.isNullDevice(zero))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        defer { close(file); unlink(path) }
        XCTAssertFalse(RequestLogLine.isNullDevice(file))
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]); close(ends[1]) }
        XCTAssertFalse(RequestLogLine.isNullDevice(ends[1]))
        XCTAssertFalse(RequestLogLine.isNullDevice(-1))
    }
}
