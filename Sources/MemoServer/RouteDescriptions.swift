import HTTPServer
import MemoAPI
import MemoCore

/// The words route declarations describe themselves with (see
/// `RouteDescription`): each route of `Routes+Topic.swift` says, beside its
/// handler, what it reads and answers, through these. `OpenAPIDocument`
/// makes the API's document from them and `Access` refuses query items no
/// route reads, so neither can drift from the routes.
enum Describe {
    typealias Parameter = RouteDescription.Parameter
    typealias Answer = RouteDescription.Answer
    typealias Schema = DocumentSchema

    // MARK: - Parameters

    static let limit = Parameter("limit", minimumInteger(1, maximum: 500), "items per page (default 50)")
    static let cursor = Parameter("cursor", Schema.string, "where the page starts: from the previous page's Link")
    static let tags = Parameter("tag", Schema.string, "must hold (repeatable: all must); -T excludes T", repeatable: true)
    /// A flag's words, as `Request.queryBool` reads them (an empty value,
    /// `?pinned`, is true).
    static let flag = Schema.choice(["true", "false", "1", "0", ""])

    static func minimumInteger(_ minimum: Int, maximum: Int) -> JSON {
        .object([("type", .string("integer")), ("minimum", .int(minimum)), ("maximum", .int(maximum))])
    }

    static let ifMatch = Parameter("If-Match", Schema.string, "the ETag the change is for (else 412)")
    static let ifNoneMatch = Parameter("If-None-Match", Schema.string, "304 when it names the current ETag")
    static let idempotencyKey = Parameter("Idempotency-Key",
                                          .object([("type", .string("string")), ("minLength", .int(1)),
                                                   ("maxLength", .int(255))]),
                                          "a retry with the same key gets the first answer")

    // MARK: - Body values
    //
    // The store's rules where a pattern can state them exactly, so that
    // generated requests (a client's, Schemathesis') make items: never
    // narrower than the server (a value a pattern refuses, the server
    // refuses too), at most wider where the rule is about graphemes.

    /// Unicode's White_Space, as Swift's `isWhitespace` reads it.
    static let space = "\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
    /// What ends a line (`String.hasLineBreak`).
    static let lineBreak = "\\n\\u000b\\f\\r\\u0085\\u2028\\u2029"

    static func pattern(_ pattern: String) -> JSON {
        .object([("type", .string("string")), ("pattern", .string(pattern))])
    }

    /// A tag: one word without spaces or commas, a leading `#` dropped (`Tags.normalized`).
    static let tag = pattern("^[\(space)]*#?[^\(space),\\u0000]+[\(space)]*$")
    /// A to-do's title: one line with something in it.
    static let title = pattern("^[^\(lineBreak)]*[^\(space)][^\(lineBreak)]*$")
    /// A memo's title: one line (empty is none).
    static let oneLine = pattern("^[^\(lineBreak)]*$")
    /// A memo's text: something besides white space and NUL.
    static let text = pattern("[^\(space)\\u0000]")
    static let tagList = Schema.nullable(Schema.array(tag))

    // MARK: - Answers

    static let etag = (name: "ETag", schema: Schema.string, isRequired: true)
    static let undoStep = (name: "Undo-Step", schema: Schema.string, isRequired: false)
    static let location = (name: "Location", schema: Schema.string, isRequired: true)
    static let link = (name: "Link", schema: Schema.string, isRequired: false)

    static func json(_ status: Int, _ summary: String, _ schema: JSON,
                     headers: [(name: String, schema: JSON, isRequired: Bool)] = []) -> Answer {
        Answer(status, summary, mediaType: "application/json", schema: schema, headers: headers)
    }

    // MARK: - Routes

    /// One item by id: 200 with its ETag, 304, 404.
    static func item(_ summary: String, _ schema: String, query: [Parameter] = []) -> RouteDescription {
        RouteDescription(summary, query: query, headers: [ifNoneMatch], answers: [
            json(200, "the item", Schema.ref(schema), headers: [etag]),
            Answer(304, "not modified", headers: [etag]), json(404, "no such item", Schema.ref("Error")),
        ])
    }

    /// A list, paged when `paged`.
    static func list(_ summary: String, _ schema: String, query: [Parameter] = [], paged: Bool = true) -> RouteDescription {
        RouteDescription(summary, query: query + (paged ? [limit, cursor] : []), answers: [
            json(200, "the items", Schema.array(Schema.ref(schema)), headers: paged ? [link] : []),
        ])
    }

    /// A change of one item (an action POST, a PATCH, a DELETE): 200, 404,
    /// 409, and 412 with the current item for a stale `If-Match`.
    static func change(_ summary: String, _ schema: String, answer: JSON? = nil, body: JSON? = nil,
                       isPost: Bool = true) -> RouteDescription {
        RouteDescription(summary, headers: [ifMatch] + (isPost ? [idempotencyKey] : []),
                         body: body.map { RouteDescription.Body("application/json", $0) }, answers: [
            json(200, "the item as it is now", answer ?? Schema.ref(schema), headers: [undoStep]),
            json(404, "no such item", Schema.ref("Error")),
            json(409, "not in a state that allows it", Schema.ref("Error")),
            json(412, "If-Match names another revision: the current item", Schema.ref(schema), headers: [etag]),
        ] + (body == nil ? [] : [json(422, "a body that is not one of these objects", Schema.ref("Error"))]))
    }

    /// A creation: 201 with `Location`.
    static func create(_ summary: String, _ schema: String, body: JSON) -> RouteDescription {
        RouteDescription(summary, headers: [idempotencyKey], body: RouteDescription.Body("application/json", body), answers: [
            json(201, "made", Schema.ref(schema), headers: [etag, location, undoStep]),
            json(404, "a named item does not exist", Schema.ref("Error")),
            json(409, "a retry while the first is running", Schema.ref("Error")),
            json(422, "a body that is not this object, or a value it cannot take", Schema.ref("Error")),
        ])
    }

    /// A POST with neither item nor body whose answer is `schema`.
    static func action(_ summary: String, _ schema: JSON, conflicts: String? = nil) -> RouteDescription {
        RouteDescription(summary, headers: [idempotencyKey], answers: [
            json(200, "done", schema),
            json(409, conflicts ?? "a retry while the first is running", Schema.ref("Error")),
        ])
    }
}
