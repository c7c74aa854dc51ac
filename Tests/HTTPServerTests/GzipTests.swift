import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// Answers gzipped for clients that ask, as real clients decode them.
final class GzipTests: XCTestCase {
    func testAcceptEncodingIsReadWithItsWeights() {
        for accepted in ["gzip", "deflate, gzip;q=0.5", "GZIP", "br, *", "x-gzip", " gzip ; q=1.0 ", "*;q=0.1"] {
            XCTAssertTrue(Gzip.isAccepted(by: accepted), accepted)
        }
        for refused in [nil, "", "identity", "br, deflate", "gzip;q=0", "gzip;q=0.000", "*;q=0", "gzip;q=2",
                        "gzip;q=nan", "*, gzip;q=0", "gzipx", ",,;"] as [String?] {
            XCTAssertFalse(Gzip.isAccepted(by: refused), refused ?? "nil")
        }
    }

    func testALongAnswerIsGzippedForAClientThatAsksAndOnlyThen() throws {
        let long = Array((0..<50_000).map { "line \($0 % 97)\n" }.joined().utf8)
        var router = Router()
        router.route(.get, "/long") { request in try Response.bytes(long, contentType: "text/plain").compressed(for: request) }
        router.route(.get, "/short") { request in try Response.text("short").compressed(for: request) }
        let server = try TestServer(router: router)

        let decoded = Curl.run(["--compressed", server.url("/long")])
        XCTAssertEqual(decoded.status, 200)
        XCTAssertEqual(decoded.header("Content-Encoding"), "gzip")
        XCTAssertEqual(decoded.header("Vary"), "Accept-Encoding")
        XCTAssertEqual(decoded.body, Data(long), "curl decodes it to the same bytes")
        let raw = Curl.run(["-H", "Accept-Encoding: gzip", server.url("/long")])
        XCTAssertLessThan(raw.body.count, long.count / 5, "what crosses the wire")
        XCTAssertEqual(raw.body.prefix(2), Data([0x1f, 0x8b]), "a gzip member")

        let plain = Curl.run([server.url("/long")])
        XCTAssertNil(plain.header("Content-Encoding"), "no Accept-Encoding: as it is")
        XCTAssertEqual(plain.body, Data(long))
        let refused = Curl.run(["-H", "Accept-Encoding: gzip;q=0, br", server.url("/long")])
        XCTAssertNil(refused.header("Content-Encoding"))
        let short = Curl.run(["--compressed", server.url("/short")])
        XCTAssertNil(short.header("Content-Encoding"), "too short to pay")
        XCTAssertEqual(short.body, Data("short".utf8))
    }

    func testEmptyAndIncompressibleBytesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for bytes in [[], [0], (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }] as [[UInt8]] {
            let gzipped = try Gzip.compress(bytes)
            XCTAssertEqual(try Gunzip.decompress(gzipped), bytes, "\(bytes.count) bytes")
        }
    }
}
