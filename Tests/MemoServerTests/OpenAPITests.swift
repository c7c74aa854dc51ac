import Foundation
import HTTPServer
import MemoAPI
import MemoCore
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

    /// Every route says what it takes and answers (the document is made
    /// from that), and the document shows it: parameters, bodies, the
    /// statuses of validators and ranges, headers, the cookie scheme, and
    /// links from a creation to its item.
    func testEveryRouteDescribesItselfAndTheDocumentSaysIt() throws {
        let server = try APITestServer()
        for route in server.server.routes {
            XCTAssertNotNil(route.documentation, "\(route.method) \(route.pattern) says nothing of itself")
        }
        let document = try JSON.parse(server.curl("GET", "/api/v1/openapi.json", authorized: false).body)
        let paths = try XCTUnwrap(document["paths"])
        func names(_ operation: JSON?) -> [String] { operation?["parameters"]?.elements?.compactMap { $0["name"]?.text } ?? [] }
        func statuses(_ operation: JSON?) -> Set<String> { Set(operation?["responses"]?.members?.map(\.0) ?? []) }

        XCTAssertEqual(names(paths["/app/{file}"]?["get"]), ["file", "If-None-Match"])
        XCTAssertEqual(names(paths["/api/v1/todos"]?["get"]),
                       ["status", "tag", "due", "due_before", "due_after", "priority", "sort", "limit", "cursor", "lang"])
        XCTAssertEqual(names(paths["/api/v1/todos/{id}"]?["patch"]), ["id", "lang", "If-Match"])
        XCTAssertEqual(paths["/api/v1/todos"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]?
            .propertyNames, ["title", "note", "priority", "tags", "due", "remind", "repeat", "repeat_from"])
        XCTAssertTrue(statuses(paths["/api/v1/todos/{id}"]?["get"]).isSuperset(of: ["200", "304", "401", "403", "404", "421", "431"]))
        XCTAssertTrue(statuses(paths["/api/v1/todos/{id}"]?["patch"]).isSuperset(of: ["200", "400", "404", "409", "412", "413", "422"]))
        XCTAssertTrue(statuses(paths["/api/v1/voice/{id}/audio"]?["get"]).isSuperset(of: ["200", "206", "304", "416"]))
        XCTAssertTrue(statuses(paths["/api/v1/session"]?["delete"]).isSuperset(of: ["204", "409"]))
        XCTAssertEqual(paths["/api/v1/todos"]?["post"]?["responses"]?["201"]?["headers"]?.members?.map(\.0),
                       ["ETag", "Location", "Undo-Step"])
        XCTAssertNotNil(paths["/api/v1/todos"]?["post"]?["responses"]?["201"]?["links"]?["get_api_v1_todos_id"])
        XCTAssertEqual(document["components"]?["securitySchemes"]?["session"]?["in"]?.text, "cookie")
        XCTAssertEqual(paths["/api/v1/health"]?["get"]?["security"], .array([]))

        // Every reference names a schema the document has.
        let known = Set(document["components"]?["schemas"]?.members?.map { "#/components/schemas/" + $0.0 } ?? [])
        func references(_ value: JSON) -> [String] {
            switch value {
            case .object(let members):
                return members.flatMap { $0.0 == "$ref" ? [$0.1.text ?? ""] : references($0.1) }
            case .array(let elements): return elements.flatMap(references)
            default: return []
            }
        }
        let all = references(document)
        XCTAssertGreaterThan(all.count, 50)
        XCTAssertEqual(Set(all).subtracting(known), [])
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
