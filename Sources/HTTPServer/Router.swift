/// Routes by method and path pattern, with one hook that sees every request
/// first. Patterns are absolute paths whose segments are literal or a
/// `{name}` that matches one whole, non-empty segment: `/api/v1/todos/{id}`. A literal
/// segment wins over a `{name}` at the same place, so `/todos/search` and
/// `/todos/{id}` can live side by side. HEAD is served by the GET route
/// (libmicrohttpd leaves the body out) unless a HEAD route is added.
///
/// Built before the server starts; a server never changes its router.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) throws -> Response
    /// Answers a request instead of its route, or nil to let it through.
    public typealias Hook = @Sendable (Request) throws -> Response?

    /// Runs for every request whose head passed the server's checks, before
    /// its route and before any body is read: authentication, a Host check,
    /// a gate. It runs for requests no route matches too (`routePattern` is
    /// nil), so a refusal does not reveal which paths exist.
    public var beforeEach: Hook?

    /// Wraps the work one request does on its thread, as one call: for a
    /// request without a body (nothing arrives between its head and its
    /// end), the `beforeEach` hook and the route together; for one with a
    /// body, the hook alone when the head arrives and the route alone once
    /// the body has. Per-request state lives here, such as one database read
    /// transaction that the hook's checks and the route's reads share. It
    /// must call `body` once and hand back what it returns or throws.
    public var around: Around?
    public typealias Around = @Sendable (_ body: () throws -> Response?) throws -> Response?

    public private(set) var routes: [Route] = []
    /// `routes` by their segment count, in the order added: a path is matched
    /// only against patterns as long as it (looking at every route was a
    /// twentieth of a small GET under perf).
    private var routesByLength: [[Route]] = []

    public init() {}

    /// A route whose request has no body (one is refused with 413).
    /// `documentation` says what it takes and answers (see `RouteDescription`).
    /// A `quick` route (the hook and the handler together) runs on the
    /// polling thread that read its request, never waiting behind other
    /// requests' work on the handler threads: only for work that touches
    /// no database and no file (a health check), which then answers
    /// whatever the handlers are doing. A `slow` route's work takes time in
    /// proportion to what it reads or writes (an export, an examination of
    /// the whole database): such work shares a limited number of the
    /// handler threads (see `HandlerPool`).
    public mutating func route(_ method: Method, _ pattern: String, _ documentation: RouteDescription? = nil,
                               quick: Bool = false, slow: Bool = false, _ handler: @escaping Handler) {
        precondition(!(quick && slow), "\(method) \(pattern) cannot be both quick and slow")
        add(Route(method: method, pattern: pattern, bodyLimit: 0, documentation: documentation,
                  isQuick: quick, isSlow: slow, action: .respond(handler)))
    }

    /// A route whose body, at most `bodyLimit` bytes, is gathered and handed
    /// whole to `handler`: for small documents such as JSON; `slow` as for
    /// `route` (a document of many changes to apply).
    public mutating func collect(_ method: Method, _ pattern: String, bodyLimit: UInt64,
                                 _ documentation: RouteDescription? = nil, slow: Bool = false,
                                 _ handler: @escaping @Sendable (Request, [UInt8]) throws -> Response) {
        add(Route(method: method, pattern: pattern, bodyLimit: bodyLimit, documentation: documentation,
                  isSlow: slow, action: .receive { request in CollectingReceiver(request: request, handler: handler) }))
    }

    /// A route whose body, at most `bodyLimit` bytes, streams to the receiver
    /// `makeReceiver` creates for each request (see `RequestBodyReceiver`).
    /// Always slow (see `route`): what a receiver does once the body is in
    /// (check a file, convert it, sync it to disk) takes time in proportion
    /// to the body, which may be as large as the limit.
    public mutating func upload(_ method: Method, _ pattern: String, bodyLimit: UInt64,
                                _ documentation: RouteDescription? = nil,
                                _ makeReceiver: @escaping @Sendable (Request) throws -> any RequestBodyReceiver) {
        add(Route(method: method, pattern: pattern, bodyLimit: bodyLimit, documentation: documentation,
                  isSlow: true, action: .receive(makeReceiver)))
    }

    /// What answers `method` on the decoded `path`.
    ///
    /// Keeps the index of the best match so far, and no array of matches.
    public func resolve(_ method: Method, path: [String]) -> Resolution {
        guard path.count < routesByLength.count else { return .notFound }
        return routesByLength[path.count].withUnsafeBufferPointer { routes in
            var chosen: (index: Int, parameters: [String: String])?
            // HEAD is served by the GET route when no HEAD route matches.
            var headFallback: (index: Int, parameters: [String: String])?
            // The most specific route for the path, whatever its method:
            // the resource the path names (`/todos/batch` is the batch's,
            // not a to-do whose id is "batch").
            var mostSpecific: Int?
            for index in routes.indices {
                guard let parameters = routes[index].parameters(matching: path) else { continue }
                if mostSpecific.map({ routes[index].isMoreSpecific(than: routes[$0]) }) ?? true { mostSpecific = index }
                if routes[index].method == method {
                    // The first of the most specific, as `min(by: isMoreSpecific)` picks.
                    if chosen.map({ routes[index].isMoreSpecific(than: routes[$0.index]) }) ?? true {
                        chosen = (index, parameters)
                    }
                } else if method == .head && routes[index].method == .get {
                    if headFallback.map({ routes[index].isMoreSpecific(than: routes[$0.index]) }) ?? true {
                        headFallback = (index, parameters)
                    }
                }
            }
            guard let mostSpecific else { return .notFound }
            let resource = routes[mostSpecific].segments
            // Matched only by a route less specific than the path's own
            // resource, which lacks this method: 405 for that resource, as
            // its description in the OpenAPI document says, not the
            // general route's answer (`PATCH /todos/batch` was a 404 for
            // "no to-do with that id").
            if let best = chosen ?? headFallback, routes[best.index].segments.sameShape(as: resource) {
                return .matched(routes[best.index], parameters: best.parameters)
            }
            var allowed: [Method] = []
            for route in routes where route.segments.sameShape(as: resource) && !allowed.contains(route.method) {
                allowed.append(route.method)
            }
            if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
            return .methodNotAllowed(allowed: allowed)
        }
    }

    public enum Resolution: Sendable {
        case matched(Route, parameters: [String: String])
        /// Some route has this path, none this method: 405 with `Allow`.
        case methodNotAllowed(allowed: [Method])
        case notFound
    }

    private mutating func add(_ route: Route) {
        precondition(!routes.contains { $0.method == route.method && $0.segments.sameShape(as: route.segments) },
                     "\(route.method) \(route.pattern) is routed twice")
        routes.append(route)
        while routesByLength.count <= route.segments.count { routesByLength.append([]) }
        routesByLength[route.segments.count].append(route)
    }
}

/// One method and path pattern, its body limit and what serves it. A
/// class, immutable: every request's routing looks at every route, and a
/// struct of strings, segments and a closure was copied for each look
/// (retained and released field by field), a twentieth of a small GET
/// under perf.
public final class Route: Sendable {
    public let method: Method
    public let pattern: String
    /// The most body bytes its requests may carry.
    public let bodyLimit: UInt64
    /// What it takes and answers, when its author said.
    public let documentation: RouteDescription?
    /// Runs on the polling thread, not the handler threads (see `Router.route`).
    public let isQuick: Bool
    /// Its work shares the handler threads kept for slow work (see `Router.route`).
    public let isSlow: Bool
    let segments: [PatternSegment]
    let action: Action

    enum Action: Sendable {
        case respond(Router.Handler)
        case receive(@Sendable (Request) throws -> any RequestBodyReceiver)
    }

    init(method: Method, pattern: String, bodyLimit: UInt64, documentation: RouteDescription? = nil,
         isQuick: Bool = false, isSlow: Bool = false, action: Action) {
        self.method = method
        self.pattern = pattern
        self.bodyLimit = bodyLimit
        self.documentation = documentation
        self.isQuick = isQuick
        self.isSlow = isSlow
        self.segments = PatternSegment.parse(pattern)
        self.action = action
    }

    /// The `{name}` values when `path` matches this pattern, else nil.
    func parameters(matching path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let text): if text != value { return nil }
            case .parameter(let name):
                if value.isEmpty { return nil }
                values[name] = value
            }
        }
        return values
    }

    /// Whether this pattern has a literal where `other` has its first `{name}`
    /// that differs: the more specific of two patterns matching one path.
    func isMoreSpecific(than other: Route) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}

enum PatternSegment: Sendable, Equatable {
    case literal(String)
    case parameter(String)

    /// A route pattern's segments; a malformed pattern is a programming
    /// mistake, so it stops the program with the reason.
    static func parse(_ pattern: String) -> [PatternSegment] {
        precondition(pattern.hasPrefix("/"), "the route pattern \(pattern) must start with /")
        if pattern == "/" { return [] }
        var names: Set<String> = []
        return pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") },
                             "the route pattern \(pattern) has a parameter name that is not a word")
                precondition(names.insert(name).inserted, "the route pattern \(pattern) names {\(name)} twice")
                return .parameter(name)
            }
            precondition(!part.contains("{") && !part.contains("}"),
                         "in the route pattern \(pattern), braces must enclose a whole segment")
            return .literal(String(part))
        }
    }
}

extension Array where Element == PatternSegment {
    /// The same literals and parameters at the same places, names aside:
    /// two such patterns match exactly the same paths.
    func sameShape(as other: [PatternSegment]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { pair in
            switch pair {
            case (.literal(let a), .literal(let b)): return a == b
            case (.parameter, .parameter): return true
            default: return false
            }
        }
    }
}
