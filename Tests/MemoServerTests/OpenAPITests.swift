import Foundation
import HTTPServer
@testable import MemoServer
import TestSupport
import XCTest

/// The OpenAPI document and the router list the same routes.
final class OpenAPITests: XCTestCase {
    func testTheDocumentAndTheRouterListTheSameRoutes() throws {
        let server = try APITestServer()
        let result = server.curl("GET", "/api/v1/openapi.json", authorized: false)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.object["openapi"] as? String, "3.1.0")
        let paths = result.object["paths"] as? [String: [String: Any]] ?? [:]
        var documented: Set<String> = []
        for (path, methods) in paths {
            for method in methods.keys { documented.insert(method.uppercased() + " " + path) }
        }
        let routed = Set(server.server.routes.map { $0.method.rawValue + " " + $0.pattern })
        XCTAssertEqual(documented.subtracting(routed).sorted(), [], "documented, not routed")
        XCTAssertEqual(routed.subtracting(documented).sorted(), [], "routed, not documented")
        XCTAssertGreaterThan(routed.count, 40)
    }

    func testExportImportAndDoctor() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "carried"}"#).status, 201)
        let export = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(export.status, 200)
        XCTAssertEqual((export.object["todos"] as? [[String: Any]])?.first?["title"] as? String, "carried")

        let other = try APITestServer()
        XCTAssertEqual(other.curl("POST", "/api/v1/import", json: export.text).status, 403)
        other.onboard()
        let imported = other.curl("POST", "/api/v1/import", json: export.text)
        XCTAssertEqual(imported.status, 200, imported.text)
        XCTAssertEqual(other.curl("GET", "/api/v1/todos").array.first?["title"] as? String, "carried")
        XCTAssertEqual(other.curl("POST", "/api/v1/import", json: "{\"broken\": ").status, 422)

        // The doctor runs before the onboarding, as on the command line.
        let doctor = try APITestServer().curl("GET", "/api/v1/doctor")
        XCTAssertEqual(doctor.status, 200, doctor.text)
        XCTAssertFalse(doctor.object.isEmpty)
    }
}
