import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// Responses as clients receive them: bodies of each kind, defaults, ranges.
final class ResponseTests: XCTestCase {
    func testEveryResponseCarriesTheDefaultsUnlessItSetsTheSameField() throws {
        var router = Router()
        router.route(.get, "/plain") { _ in .text("plain") }
        router.route(.get, "/cached") { _ in
            Response(status: 200, headers: ["Cache-Control": "max-age=60", "X-Extra": "1"], body: .bytes([1, 2, 3]))
        }
        let server = try TestServer(router: router) { configuration in
            configuration.defaultHeaders.add("Content-Security-Policy", "default-src 'none'")
        }
        let plain = Curl.run([server.url("/plain")])
        XCTAssertEqual(plain.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(plain.header("Cache-Control"), "no-store")
        XCTAssertEqual(plain.header("Content-Security-Policy"), "default-src 'none'")
        XCTAssertEqual(plain.header("Content-Type"), "text/plain; charset=utf-8")
        let cached = Curl.run([server.url("/cached")])
        XCTAssertEqual(cached.headers.filter { $0.name.lowercased() == "cache-control" }.map(\.value), ["max-age=60"])
        XCTAssertEqual(cached.header("X-Extra"), "1")
        XCTAssertEqual(cached.body, Data([1, 2, 3]))
        let missing = Curl.run([server.url("/missing")])
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.header("Cache-Control"), "no-store", "the server's own refusals carry them too")
    }

    func testAFieldThatCouldForgeAnotherBecomesA500() throws {
        var router = Router()
        router.route(.get, "/inject") { _ in
            Response(status: 200, headers: ["X-Title": "a\r\nSet-Cookie: evil=1"], body: .bytes(Array("x".utf8)))
        }
        router.route(.get, "/badname") { _ in Response(status: 200, headers: ["Bad Name": "v"], body: .empty) }
        let server = try TestServer(router: router)
        for path in ["/inject", "/badname"] {
            let result = Curl.run([server.url(path)])
            XCTAssertEqual(result.status, 500, path)
            XCTAssertNil(result.header("Set-Cookie"))
        }
        server.assertStillServes("/inject", status: 500)
    }

    func testFilesAreServedWholeOrByRange() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("audio.bin")
        let content = Data((0..<10_000).map { UInt8($0 % 251) })
        try content.write(to: URL(fileURLWithPath: path))
        let file = try OpenFile(path: path)
        var router = Router()
        router.route(.get, "/audio") { request in .file(file, contentType: "audio/flac", for: request) }
        let server = try TestServer(router: router)

        let whole = Curl.run([server.url("/audio")])
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, content)
        XCTAssertEqual(whole.header("Accept-Ranges"), "bytes")
        XCTAssertEqual(whole.header("Content-Type"), "audio/flac")

        let part = Curl.run(["-H", "Range: bytes=100-199", server.url("/audio")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, content[100..<200])
        XCTAssertEqual(part.header("Content-Range"), "bytes 100-199/10000")
        XCTAssertEqual(part.header("Content-Length"), "100")

        let tail = Curl.run(["-H", "Range: bytes=-10", server.url("/audio")])
        XCTAssertEqual(tail.body, content.suffix(10))
        XCTAssertEqual(tail.header("Content-Range"), "bytes 9990-9999/10000")

        let beyond = Curl.run(["-H", "Range: bytes=10000-", server.url("/audio")])
        XCTAssertEqual(beyond.status, 416)
        XCTAssertEqual(beyond.header("Content-Range"), "bytes */10000")

        let conditional = Curl.run(["-H", "Range: bytes=0-9", "-H", "If-Range: \"x\"", server.url("/audio")])
        XCTAssertEqual(conditional.status, 200)
        XCTAssertEqual(conditional.body.count, 10_000)

        let head = Curl.run(["-I", server.url("/audio")])
        XCTAssertEqual(head.header("Content-Length"), "10000")
        XCTAssertTrue(head.body.isEmpty)
        let records = server.waitForRecords(6)
        XCTAssertEqual(records.map(\.bytes), [10_000, 100, 10, 22, 10_000, 0])
    }

    func testOpenFileRefusesWhatIsNotARegularFile() throws {
        let folder = TemporaryDirectory()
        XCTAssertThrowsError(try OpenFile(path: folder.path)) { XCTAssertEqual(($0 as? MemoError)?.kind, .noInput) }
        XCTAssertThrowsError(try OpenFile(path: folder.appending("absent"))) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .noInput)
        }
    }

    func testAStreamedBodyIsMadeOnDemandAndAThrowCutsIt() throws {
        struct Failed: Error {}
        var router = Router()
        router.route(.get, "/count") { _ in
            let next = Locked(0)
            return .stream(contentType: "text/plain") { buffer in
                let line = next.withValue { number -> String? in
                    number += 1
                    return number <= 1000 ? "\(number)\n" : nil
                }
                guard let line else { return 0 }
                return fill(buffer, with: line)
            }
        }
        router.route(.get, "/fails") { _ in
            let calls = Locked(0)
            return .stream(contentType: "text/plain") { buffer in
                guard calls.withValue({ $0 += 1; return $0 }) == 1 else { throw Failed() }
                return fill(buffer, with: "start")
            }
        }
        let server = try TestServer(router: router)
        let counted = Curl.run([server.url("/count")])
        XCTAssertEqual(counted.status, 200)
        XCTAssertEqual(counted.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(counted.text, (1...1000).map { "\($0)\n" }.joined())
        let failed = Curl.run([server.url("/fails")])
        XCTAssertNotEqual(failed.exitCode, 0, "an incomplete chunked body must not look complete")
        server.assertStillServes("/count")
    }
}

/// Copies `text` into the start of `buffer`; its length.
func fill(_ buffer: UnsafeMutableRawBufferPointer, with text: String) -> Int {
    let bytes = Array(text.utf8)
    precondition(bytes.count <= buffer.count)
    UnsafeMutableRawBufferPointer(rebasing: buffer[..<bytes.count]).copyBytes(from: bytes)
    return bytes.count
}
