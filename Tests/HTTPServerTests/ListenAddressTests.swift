@testable import HTTPServer
import MemoCore
import XCTest

final class ListenAddressTests: XCTestCase {
    func testIPv4AndIPv6AddressesParseToTheirCanonicalForm() throws {
        let ipv4 = try ListenAddress(parsing: "127.0.0.1:8765")
        XCTAssertEqual(ipv4.family, .ipv4)
        XCTAssertEqual(ipv4.host, "127.0.0.1")
        XCTAssertEqual(ipv4.port, 8765)
        XCTAssertEqual(ipv4.description, "127.0.0.1:8765")
        let ipv6 = try ListenAddress(parsing: "[0:0:0:0:0:0:0:1]:0")
        XCTAssertEqual(ipv6.family, .ipv6)
        XCTAssertEqual(ipv6.host, "::1")
        XCTAssertEqual(ipv6.port, 0)
        XCTAssertEqual(ipv6.description, "[::1]:0")
        XCTAssertEqual(try ListenAddress(parsing: "0.0.0.0:65535").port, 65535)
    }

    func testMalformedAddressesAreUsageErrorsInBothLanguages() {
        for text in ["", "127.0.0.1", "127.0.0.1:", ":80", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:8a",
                     "::1:80", "[::1]", "[::1]80", "[127.0.0.1]:80", "localhost:80", "[::1]:+80",
                     "1.2.3.4:123456", "999.0.0.1:80", "127.0.0.1:80\u{1B}[2J"] {
            do {
                _ = try ListenAddress(parsing: text)
                XCTFail("\(text) parsed")
            } catch {
                XCTAssertEqual(error.kind, .usage, text)
                XCTAssertFalse(error.message.en.contains("\u{1B}"), "a control character reached the message")
                XCTAssertFalse(error.message.ko.isEmpty)
            }
        }
    }

    func testLoopbackIsIPv4() {
        XCTAssertEqual(ListenAddress.loopback(port: 9).description, "127.0.0.1:9")
    }
}
