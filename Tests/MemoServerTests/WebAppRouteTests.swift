import Foundation
import TestSupport
import XCTest

/// The web app's page and files, served by the API's router without
/// credentials (the page must load to sign in).
final class WebAppRouteTests: XCTestCase {
    func testThePageNeedsNoCredentialsAndAllowsOnlyItsOwnScriptsAndStyles() throws {
        let server = try APITestServer()
        let page = server.curl("GET", "/", authorized: false)
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff")
        XCTAssertTrue(page.header("Content-Security-Policy")?.contains("script-src 'self'") ?? false)
        let script = server.curl("GET", "/app/main.js", authorized: false)
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        let etag = try XCTUnwrap(script.header("ETag"))
        XCTAssertEqual(server.curl("GET", "/app/main.js", authorized: false, headers: ["If-None-Match: \(etag)"]).status, 304)
        XCTAssertEqual(server.curl("GET", "/app/nothing.js", authorized: false).status, 404)
    }
}
