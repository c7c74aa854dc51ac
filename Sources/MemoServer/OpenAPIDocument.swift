import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `GET /api/v1/openapi.json`: the API as an OpenAPI 3.1 document, made
/// from the router's routes and what each declares of itself
/// (`RouteDescription`, written beside its handler), with the documents'
/// schemas from the wire format (`DocumentSchema`). Nothing here lists
/// routes: a route added to the router is in the document.
enum OpenAPIDocument {
    /// The document's bytes, made once the router is complete (the route
    /// serving it is one of the routes it describes).
    final class Holder: @unchecked Sendable {
        // Written once by `MemoRoutes.make`, before any server thread runs.
        var bytes: [UInt8] = []
    }

    static func json(_ routes: [Route]) -> JSON {
        var paths: [(String, JSON)] = []
        for route in routes {
            let operation = operation(route, among: routes)
            if let index = paths.firstIndex(where: { $0.0 == route.pattern }), case .object(var methods) = paths[index].1 {
                methods.append((route.method.rawValue.lowercased(), operation))
                paths[index].1 = .object(methods)
            } else {
                paths.append((route.pattern, .object([(route.method.rawValue.lowercased(), operation)])))
            }
        }
        return .object([
            ("openapi", .string("3.1.0")),
            ("info", .object([("title", .string("memoapp")), ("version", .string(Version.current)),
                              ("description", .string("memoapp's HTTP API; docs/api.md says what each route does"))])),
            ("security", security(for: .get)),
            ("paths", .object(paths)),
            ("components", .object([
                ("securitySchemes", .object([
                    ("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))])),
                    ("session", .object([("type", .string("apiKey")), ("in", .string("cookie")),
                                         ("name", .string(Access.sessionCookie))])),
                    ("csrf", .object([("type", .string("apiKey")), ("in", .string("header")),
                                      ("name", .string("X-CSRF-Token"))])),
                ])),
                ("schemas", .object(DocumentSchema.all)),
            ])),
        ])
    }

    /// A token, or the web app's session cookie (with its CSRF token for
    /// anything but a read).
    static func security(for method: Method) -> JSON {
        let session: JSON = method == .get || method == .head
            ? .object([("session", .array([]))])
            : .object([("session", .array([])), ("csrf", .array([]))])
        return .array([.object([("bearer", .array([]))]), session])
    }

    static func operation(_ route: Route, among routes: [Route]) -> JSON {
        let about = route.documentation ?? RouteDescription(route.pattern)
        let isAPI = route.pattern.hasPrefix("/api/v1/")
        var fields: [(String, JSON)] = [
            ("summary", .string(about.summary)),
            ("operationId", .string(operationID(route))),
        ]
        var parameters: [JSON] = route.pattern.split(separator: "/").compactMap { segment -> JSON? in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return nil }
            let name = String(segment.dropFirst().dropLast())
            let declared = about.path.first { $0.name == name }
            return parameter(name, in: "path", schema: declared?.schema ?? pathSchema(name), required: true,
                             summary: declared?.summary ?? "")
        }
        for item in about.query + (isAPI ? [language] : []) {
            parameters.append(parameter(item.name, in: "query",
                                        schema: item.isRepeatable ? DocumentSchema.array(item.schema) : item.schema,
                                        required: item.isRequired, summary: item.summary))
        }
        for field in about.headers {
            parameters.append(parameter(field.name, in: "header", schema: field.schema, required: field.isRequired,
                                        summary: field.summary))
        }
        if !parameters.isEmpty { fields.append(("parameters", .array(parameters))) }
        if let body = about.body {
            fields.append(("requestBody", .object([
                ("required", .bool(body.isRequired)),
                ("content", .object(body.mediaTypes.map { type in
                    (type, .object(body.schema.map { [("schema", $0)] } ?? []))
                })),
            ])))
        }
        let isPublic = about.isPublic || !isAPI
        fields.append(("security", isPublic ? .array([]) : security(for: route.method)))
        var answers = about.answers
        for common in commonAnswers(route, isAPI: isAPI, isPublic: isPublic)
        where !answers.contains(where: { $0.status == common.status }) {
            answers.append(common)
        }
        answers.sort { $0.status < $1.status }
        let links = self.links(from: route, among: routes)
        fields.append(("responses", .object(answers.map { answer in
            (String(answer.status), response(answer, links: answer.status == 201 ? links : []))
        })))
        return .object(fields)
    }

    /// What any route may answer besides what it declares: the refusals of
    /// the HTTP layer and of the access hook.
    static func commonAnswers(_ route: Route, isAPI: Bool, isPublic: Bool) -> [RouteDescription.Answer] {
        let error = DocumentSchema.ref("Error")
        var answers = [
            Describe.json(400, "a malformed request: its target, a query item no route reads, a value it cannot take",
                          error),
            Describe.json(413, "a body larger than the route takes", error),
            Describe.json(414, "a query of more than 256 items", error),
            Describe.json(421, "a Host this server does not answer to", error),
            Describe.json(431, "a head larger than 16 KiB", error),
            Describe.json(503, "the server is starting or stopping, or the database is unavailable", error),
        ]
        if !isPublic {
            answers.append(Describe.json(401, "no valid credentials", error,
                                         headers: [(name: "Retry-After", schema: DocumentSchema.string, isRequired: false)]))
            answers.append(Describe.json(403, "the onboarding is not completed, or a change without its CSRF token", error))
        }
        if !isAPI { answers.append(Describe.json(404, "no such file", error)) }
        if route.method == .post && isAPI {
            answers.append(Describe.json(409, "a retry while the first request with its Idempotency-Key runs", error))
            answers.append(Describe.json(422, "an Idempotency-Key used before with another body", error))
        }
        return answers
    }

    /// From a creation to every route of the item it made (`/todos` to
    /// `/todos/{id}`, `/todos/{id}/done`, …), for clients and stateful tests.
    static func links(from route: Route, among routes: [Route]) -> [(String, JSON)] {
        routes.filter { $0.pattern.hasPrefix(route.pattern + "/{id}") }.map { target in
            (operationID(target), .object([
                ("operationId", .string(operationID(target))),
                ("parameters", .object([("id", .string("$response.body#/id"))])),
            ]))
        }
    }

    static func response(_ answer: RouteDescription.Answer, links: [(String, JSON)]) -> JSON {
        var fields: [(String, JSON)] = [("description", .string(answer.summary))]
        if !answer.headers.isEmpty {
            fields.append(("headers", .object(answer.headers.map { header in
                (header.name, .object([("required", .bool(header.isRequired)), ("schema", header.schema)]))
            })))
        }
        if let mediaType = answer.mediaType {
            fields.append(("content", .object([(mediaType, .object(answer.schema.map { [("schema", $0)] } ?? []))])))
        }
        if !links.isEmpty { fields.append(("links", .object(links))) }
        return .object(fields)
    }

    static func parameter(_ name: String, in place: String, schema: JSON, required: Bool, summary: String) -> JSON {
        var fields: [(String, JSON)] = [("name", .string(name)), ("in", .string(place)), ("required", .bool(required)),
                                        ("schema", schema)]
        if !summary.isEmpty { fields.append(("description", .string(summary))) }
        return .object(fields)
    }

    /// An item's `{id}`: its id or its uid; any other `{name}`, a string.
    static func pathSchema(_ name: String) -> JSON {
        guard name == "id" else { return DocumentSchema.string }
        return .object([("anyOf", .array([Describe.minimumInteger(1, maximum: Int(Int64.max)), DocumentSchema.uid]))])
    }

    /// `?lang=ko|en`, read by every API route (the language of messages).
    static let language = RouteDescription.Parameter("lang", DocumentSchema.choice(["en", "ko"]),
                                                     "the language of error messages and pages")

    static func operationID(_ route: Route) -> String {
        route.method.rawValue.lowercased() + route.pattern.replacingAll("/", with: "_").replacingAll("{", with: "")
            .replacingAll("}", with: "").replacingAll(".", with: "_")
    }
}

extension MemoRoutes {
    static func addOpenAPI(to router: inout Router, _ document: OpenAPIDocument.Holder) {
        router.route(.get, "/api/v1/openapi.json", RouteDescription(
            "This document", answers: [Describe.json(200, "OpenAPI 3.1", DocumentSchema.type("object"))], isPublic: true
        )) { _ in .bytes(document.bytes, contentType: "application/json") }
    }
}
