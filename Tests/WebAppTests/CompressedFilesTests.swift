import Foundation
import HTTPServer
import TestSupport
import XCTest
@testable import WebApp

/// The page's text files are sent gzipped to a client that takes gzip, under
/// a validator of their own, and as they are to one that does not.
final class CompressedFilesTests: XCTestCase {
    private func get(_ name: String, headers: Headers = [:]) -> Response {
        let request = Request(method: .get, target: "/app/" + name, path: ["app", name], headers: headers)
        return WebApp.response(for: name, request: request)
    }

    private func body(_ response: Response) -> [UInt8] {
        guard case .bytes(let bytes) = response.body else {
            XCTFail("a file is answered with its bytes")
            return []
        }
        return bytes
    }

    func testEveryTextFileIsGzippedForABrowserAndDecompressesToItself() throws {
        var sent = 0
        var whole = 0
        for (name, file) in WebApp.files where CompressedFiles.isWorthCompressing(file) {
            let answer = get(name, headers: ["Accept-Encoding": "gzip, deflate, br, zstd"])
            XCTAssertEqual(answer.status, 200, name)
            XCTAssertEqual(answer.headers["Content-Encoding"], "gzip", name)
            XCTAssertEqual(answer.headers["Vary"], "Accept-Encoding", name)
            XCTAssertEqual(answer.headers["ETag"], CompressedFiles.etag(of: file), name)
            XCTAssertNotEqual(answer.headers["ETag"], file.etag, "one validator per representation")
            let gzipped = body(answer)
            XCTAssertTrue(try Gunzip.decompress(gzipped) == file.bytes, "\(name) gunzipped differs from the file")
            sent += gzipped.count
            whole += file.bytes.count
        }
        XCTAssertGreaterThan(whole, 100_000, "the page's text files are compressed")
        XCTAssertLessThan(sent * 2, whole, "JavaScript and CSS with comments compress to well under half")
    }

    func testAClientThatRefusesGzipGetsTheFileAsItIs() {
        let file = WebApp.files["main.js"]!
        for header: String? in [nil, "identity", "gzip;q=0", "br"] {
            let answer = get("main.js", headers: header.map { ["Accept-Encoding": $0] } ?? [:])
            XCTAssertNil(answer.headers["Content-Encoding"], header ?? "no Accept-Encoding")
            XCTAssertEqual(answer.headers["ETag"], file.etag)
            XCTAssertTrue(body(answer) == file.bytes)
        }
    }

    func testEachRepresentationRevalidatesWithItsOwnValidator() {
        let file = WebApp.files["style.css"]!
        let zipped = CompressedFiles.etag(of: file)
        XCTAssertEqual(get("style.css", headers: ["Accept-Encoding": "gzip", "If-None-Match": zipped]).status, 304)
        XCTAssertEqual(get("style.css", headers: ["If-None-Match": file.etag]).status, 304)
        // A validator of the other representation is not this one's.
        XCTAssertEqual(get("style.css", headers: ["Accept-Encoding": "gzip", "If-None-Match": file.etag]).status, 200)
        XCTAssertEqual(get("style.css", headers: ["If-None-Match": zipped]).status, 200)
        let notModified = get("style.css", headers: ["Accept-Encoding": "gzip", "If-None-Match": zipped])
        XCTAssertNil(notModified.headers["Content-Encoding"], "a 304 has no body to be encoded")
    }

    func testImagesAndShortFilesAreSentAsTheyAre() {
        for (name, file) in WebApp.files where name.hasSuffix(".png") || file.bytes.count < Gzip.minimumBytes {
            let answer = get(name, headers: ["Accept-Encoding": "gzip"])
            XCTAssertNil(answer.headers["Content-Encoding"], name)
            XCTAssertTrue(body(answer) == file.bytes, name)
        }
        XCTAssertTrue(WebApp.files.keys.contains { $0.hasSuffix(".png") }, "the icons are among the files")
    }
}
