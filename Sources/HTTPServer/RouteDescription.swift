import MemoCore

/// What a route takes and answers, as data declared beside the route: an
/// app makes its API's document (OpenAPI) from the router's routes, and
/// refuses query items a route does not read, from this one declaration,
/// so the document, the checks and the routes cannot drift apart. The
/// router knows no app: schemas are JSON Schema values the app gives.
public struct RouteDescription: Sendable {
    public var summary: String
    /// The pattern's `{name}` segments, where a schema says more than
    /// "a string"; the others are strings.
    public var path: [Parameter]
    /// The query items the route reads.
    public var query: [Parameter]
    /// The request header fields the route reads (`If-Match`, `Range`, …).
    public var headers: [Parameter]
    public var body: Body?
    public var answers: [Answer]
    /// Served without credentials.
    public var isPublic: Bool

    public init(_ summary: String, path: [Parameter] = [], query: [Parameter] = [], headers: [Parameter] = [], body: Body? = nil,
                answers: [Answer] = [], isPublic: Bool = false) {
        self.summary = summary
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.answers = answers
        self.isPublic = isPublic
    }

    /// A query item or a header field: its name, its JSON Schema, and
    /// whether it must be there or may come more than once.
    public struct Parameter: Sendable {
        public var name: String
        public var schema: JSON
        public var summary: String
        public var isRequired: Bool
        public var isRepeatable: Bool

        public init(_ name: String, _ schema: JSON, _ summary: String = "", required: Bool = false,
                    repeatable: Bool = false) {
            self.name = name
            self.schema = schema
            self.summary = summary
            self.isRequired = required
            self.isRepeatable = repeatable
        }
    }

    /// A request body: its media types (the route reads any of them the
    /// same way) and its schema.
    public struct Body: Sendable {
        public var mediaTypes: [String]
        public var schema: JSON?
        public var isRequired: Bool

        public init(_ mediaType: String, _ schema: JSON? = nil, required: Bool = true, or others: [String] = []) {
            self.mediaTypes = [mediaType] + others
            self.schema = schema
            self.isRequired = required
        }
    }

    /// One status the route answers, its body's media type and schema, and
    /// the header fields it carries (name, schema, whether always there).
    public struct Answer: Sendable {
        public var status: Int
        public var summary: String
        public var mediaType: String?
        public var schema: JSON?
        public var headers: [(name: String, schema: JSON, isRequired: Bool)]

        public init(_ status: Int, _ summary: String, mediaType: String? = nil, schema: JSON? = nil,
                    headers: [(name: String, schema: JSON, isRequired: Bool)] = []) {
            self.status = status
            self.summary = summary
            self.mediaType = mediaType
            self.schema = schema
            self.headers = headers
        }
    }
}
