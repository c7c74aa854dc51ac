import HTTPServer
import MemoCore
import MemoKit

/// `GET /api/v1/openapi.json`: the API as an OpenAPI 3.1 document, written
/// here as its own list (not read off the router), so that a test comparing
/// the two finds a route added to one and forgotten in the other.
enum OpenAPIDocument {
    struct Operation {
        let method: String
        let path: String
        let summary: String
        let success: Int
        var body: Body = .none
        var isPublic = false

        enum Body { case none, json, audio }
    }

    static let operations: [Operation] = [
        Operation(method: "get", path: "/api/v1/health", summary: "Is it up; the version", success: 200, isPublic: true),
        Operation(method: "get", path: "/api/v1/openapi.json", summary: "This document", success: 200, isPublic: true),
        Operation(method: "post", path: "/api/v1/session", summary: "Exchange a sign-in code for a session cookie",
                  success: 200, body: .json, isPublic: true),
        Operation(method: "get", path: "/api/v1/session", summary: "Who is asking; the CSRF token again", success: 200),
        Operation(method: "delete", path: "/api/v1/session", summary: "Sign out", success: 204),
        Operation(method: "get", path: "/", summary: "The web app's page", success: 200, isPublic: true),
        Operation(method: "get", path: "/app/{file}", summary: "The web app's scripts and styles", success: 200, isPublic: true),
        Operation(method: "get", path: "/api/v1/onboarding", summary: "The onboarding state and its four pages", success: 200),
        Operation(method: "post", path: "/api/v1/onboarding/next", summary: "Next page", success: 200),
        Operation(method: "post", path: "/api/v1/onboarding/prev", summary: "Previous page", success: 200),
        Operation(method: "post", path: "/api/v1/onboarding/skip", summary: "Finish now", success: 200),
        Operation(method: "post", path: "/api/v1/onboarding/start", summary: "Finish, from the last page (else 409)", success: 200),
        Operation(method: "post", path: "/api/v1/onboarding/reset", summary: "Back to page 1, not completed", success: 200),
        Operation(method: "put", path: "/api/v1/onboarding/page", summary: "Go to page N", success: 200, body: .json),
        Operation(method: "get", path: "/api/v1/todos", summary: "To-dos: status, tag (repeatable, -T excludes), due, due_before, due_after, priority, sort, limit, cursor", success: 200),
        Operation(method: "post", path: "/api/v1/todos", summary: "Add a to-do (repeat: a rule for a recurring one)", success: 201, body: .json),
        Operation(method: "get", path: "/api/v1/todos/{id}", summary: "One to-do", success: 200),
        Operation(method: "patch", path: "/api/v1/todos/{id}", summary: "Change a to-do", success: 200, body: .json),
        Operation(method: "delete", path: "/api/v1/todos/{id}", summary: "Remove a to-do", success: 200),
        Operation(method: "post", path: "/api/v1/todos/{id}/done", summary: "Finish a to-do (a recurring one also gets its next occurrence)", success: 200),
        Operation(method: "post", path: "/api/v1/todos/{id}/undo", summary: "Reopen a to-do", success: 200),
        Operation(method: "get", path: "/api/v1/memos", summary: "Memos: tag (repeatable, -T excludes), pinned, since, until, sort, reverse, limit, cursor", success: 200),
        Operation(method: "post", path: "/api/v1/memos", summary: "Add a memo", success: 201, body: .json),
        Operation(method: "get", path: "/api/v1/memos/{id}", summary: "One memo", success: 200),
        Operation(method: "patch", path: "/api/v1/memos/{id}", summary: "Change a memo's text, title or tags", success: 200, body: .json),
        Operation(method: "delete", path: "/api/v1/memos/{id}", summary: "Remove a memo", success: 200),
        Operation(method: "post", path: "/api/v1/memos/{id}/pin", summary: "Pin a memo", success: 200),
        Operation(method: "post", path: "/api/v1/memos/{id}/unpin", summary: "Unpin a memo", success: 200),
        Operation(method: "get", path: "/api/v1/search", summary: "Search to-dos, memos and voice memo titles: q, limit", success: 200),
        Operation(method: "post", path: "/api/v1/voice", summary: "Upload audio (raw body); title, tag, filename in the query",
                  success: 201, body: .audio),
        Operation(method: "get", path: "/api/v1/voice", summary: "Voice memos: tag, limit", success: 200),
        Operation(method: "get", path: "/api/v1/voice/{id}", summary: "One voice memo", success: 200),
        Operation(method: "patch", path: "/api/v1/voice/{id}", summary: "Change a voice memo's title or tags", success: 200, body: .json),
        Operation(method: "delete", path: "/api/v1/voice/{id}", summary: "Remove a voice memo and its audio", success: 200),
        Operation(method: "get", path: "/api/v1/voice/{id}/audio", summary: "The stored audio; Range gives 206 or 416", success: 200),
        Operation(method: "get", path: "/api/v1/voice/{id}/peaks", summary: "Waveform peaks, audiowaveform JSON v2: width", success: 200),
        Operation(method: "get", path: "/api/v1/voice/{id}/waveform.svg", summary: "The waveform as SVG: width, height", success: 200),
        Operation(method: "post", path: "/api/v1/voice/{id}/trim", summary: "Keep start to end (seconds)", success: 200, body: .json),
        Operation(method: "get", path: "/api/v1/timers", summary: "Running and paused timers; all=true for ended ones too", success: 200),
        Operation(method: "post", path: "/api/v1/timers", summary: "Start a countdown (duration) or a stopwatch", success: 201, body: .json),
        Operation(method: "get", path: "/api/v1/timers/{id}", summary: "One timer", success: 200),
        Operation(method: "delete", path: "/api/v1/timers/{id}", summary: "Cancel a timer (kept, cancelled)", success: 200),
        Operation(method: "post", path: "/api/v1/timers/{id}/pause", summary: "Pause", success: 200),
        Operation(method: "post", path: "/api/v1/timers/{id}/resume", summary: "Resume", success: 200),
        Operation(method: "post", path: "/api/v1/timers/{id}/lap", summary: "Record a lap (stopwatch)", success: 200),
        Operation(method: "post", path: "/api/v1/timers/{id}/stop", summary: "Stop a stopwatch", success: 200),
        Operation(method: "post", path: "/api/v1/timers/{id}/dismiss", summary: "Mark an ended timer seen (leaves the main screen)",
                  success: 200),
        Operation(method: "get", path: "/api/v1/events", summary: "Server-Sent Events: todo, memo, voice, timer, timer.finished, onboarding",
                  success: 200),
        Operation(method: "get", path: "/api/v1/onboarding/events",
                  summary: "Server-Sent Events of the onboarding alone; open before the onboarding is completed", success: 200),
        Operation(method: "get", path: "/api/v1/export", summary: "The export document", success: 200),
        Operation(method: "post", path: "/api/v1/import", summary: "Import an export document", success: 200, body: .json),
        Operation(method: "get", path: "/api/v1/doctor", summary: "Examine the data home", success: 200),
        Operation(method: "get", path: "/api/v1/undo", summary: "The undo history, newest first, each step with its origin",
                  success: 200),
        Operation(method: "post", path: "/api/v1/undo", summary: "Revert the newest change, whoever made it", success: 200),
        Operation(method: "post", path: "/api/v1/undo/{id}",
                  summary: "Revert one step when no later step touched its items (409 naming the one that did)",
                  success: 200),
    ]

    static let json: JSON = {
        var paths: [(String, JSON)] = []
        for operation in operations {
            var fields: [(String, JSON)] = [
                ("summary", .string(operation.summary)),
                ("operationId", .string(operation.method + operation.path.replacingAll("/", with: "_")
                    .replacingAll("{", with: "").replacingAll("}", with: "").replacingAll(".", with: "_"))),
            ]
            if operation.path.contains("{id}") {
                fields.append(("parameters", .array([.object([
                    ("name", .string("id")), ("in", .string("path")), ("required", .bool(true)),
                    ("schema", .object([("type", .string("integer")), ("minimum", .int(1))])),
                ])])))
            }
            switch operation.body {
            case .none: break
            case .json:
                fields.append(("requestBody", content("application/json", required: true)))
            case .audio:
                fields.append(("requestBody", content("audio/*", required: true)))
            }
            if operation.isPublic { fields.append(("security", .array([]))) }
            var responses: [(String, JSON)] = [(String(operation.success), .object([("description", .string("success"))]))]
            for status in operation.isPublic ? [] : [400, 401, 403, 404, 409, 413, 422, 503] {
                responses.append((String(status), .object([
                    ("description", .string("error")),
                    ("content", .object([("application/json", .object([("schema", .object([
                        ("$ref", .string("#/components/schemas/Error"))]))]))])),
                ])))
            }
            fields.append(("responses", .object(responses)))
            if let index = paths.firstIndex(where: { $0.0 == operation.path }), case .object(var methods) = paths[index].1 {
                methods.append((operation.method, .object(fields)))
                paths[index].1 = .object(methods)
            } else {
                paths.append((operation.path, .object([(operation.method, .object(fields))])))
            }
        }
        let error = JSON.object([
            ("type", .string("object")),
            ("required", .strings(["error"])),
            ("properties", .object([("error", .object([
                ("type", .string("object")),
                ("required", .strings(["code", "message"])),
                ("properties", .object([("code", .object([("type", .string("string"))])),
                                        ("message", .object([("type", .string("string"))]))])),
            ]))])),
        ])
        return .object([
            ("openapi", .string("3.1.0")),
            ("info", .object([("title", .string("memoapp")), ("version", .string(Version.current)),
                              ("description", .string("memoapp's HTTP API; see docs/api.md"))])),
            ("security", .array([.object([("bearer", .array([]))])])),
            ("paths", .object(paths)),
            ("components", .object([
                ("securitySchemes", .object([("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))]))])),
                ("schemas", .object([("Error", error)])),
            ])),
        ])
    }()

    private static func content(_ type: String, required: Bool) -> JSON {
        .object([("required", .bool(required)), ("content", .object([(type, .object([]))]))])
    }
}

extension MemoRoutes {
    static func addOpenAPI(to router: inout Router) {
        router.route(.get, "/api/v1/openapi.json") { _ in .json(OpenAPIDocument.json) }
    }
}
