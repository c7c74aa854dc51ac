import HTTPServer
import MemoCore
import MemoKit

/// Reading what a request carries (path ids, query values, JSON bodies),
/// range-checked before anything is stored or queried.
extension Request {
    /// The `{id}` of the path as the item's id: a positive id, or the
    /// item's uid (the name every device shares), looked up in the request's
    /// read. A path naming no item that can exist is answered 404 like a
    /// missing one.
    func itemID(_ kind: ChangeLog.Kind, _ services: ServerServices) throws -> Int64 {
        let what = MemoRoutes.word(for: kind)
        let notFound = MemoError(.notFound, en: "no \(what.en) with that id", ko: "그 id의 \(what.ko)이(가) 없습니다")
        guard let text = parameters["id"] else { throw notFound }
        if text.utf8.count == 36 {
            guard let id = try services.read({ try ItemIdentity.id(of: kind, uid: text, in: $0) }) else { throw notFound }
            return id
        }
        guard text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(text), id >= 1 else {
            throw notFound
        }
        return id
    }

    /// The query item `name` as a whole number in `range`, or nil when absent.
    func queryInt(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = queryValue(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw MemoError(.usage, en: "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                            ko: "'\(name)' 값은 \(range.lowerBound)에서 \(range.upperBound) 사이의 정수여야 합니다")
        }
        return value
    }

    /// The query item `name` as one of `Value`'s raw values, or nil when absent.
    func queryChoice<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        guard let text = queryValue(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            let choices = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw MemoError(.usage, en: "'\(name)' must be one of \(choices)", ko: "'\(name)' 값은 \(choices) 중 하나여야 합니다")
        }
        return value
    }

    /// `true` or `false` (or absent: `defaultValue`).
    func queryBool(_ name: String, default defaultValue: Bool = false) throws -> Bool {
        guard let text = queryValue(name) else { return defaultValue }
        switch text {
        case "true", "1", "": return true
        case "false", "0": return false
        default:
            throw MemoError(.usage, en: "'\(name)' must be true or false", ko: "'\(name)' 값은 true 또는 false여야 합니다")
        }
    }
}

extension Router {
    /// A route whose body is a JSON document of at most `JSONBody.limit`
    /// bytes. Whatever its handler refuses as `usage` is the body's fault
    /// and answered 422 (`bad_input`), as every well-formed request with a
    /// value the server cannot take is, wherever the check is made (a date
    /// the parser cannot read, a title the store refuses): what is wrong
    /// with the target was refused before, 400 (unknown query items, by
    /// the hook), and a path naming no item is 404.
    mutating func json(_ method: Method, _ pattern: String, _ documentation: RouteDescription,
                       bodyLimit: UInt64 = JSONBody.limit,
                       _ handler: @escaping @Sendable (Request, [UInt8]) throws -> Response) {
        collect(method, pattern, bodyLimit: bodyLimit, documentation) { request, body in
            try JSONBody.reading { try handler(request, body) }
        }
    }
}

/// A request's JSON body: one object, whose keys must all be known (a
/// misspelt key is refused rather than silently ignored).
enum JSONBody {
    /// The most bytes a JSON body may have.
    static let limit: UInt64 = 1 << 20
    /// The most a body sent to a route open to anyone may have (signing
    /// in, a device code's exchange: a code and a name). A body's time to
    /// arrive grows with its length (`ServerConfiguration.bodyMinimumRate`),
    /// so this bounds how long a stranger's trickle holds a connection:
    /// 5 s and 1 more.
    static let publicLimit: UInt64 = 16 << 10

    /// The keys `JSONReader.tagChanges` reads.
    static let tagKeys: Set<String> = ["tags", "add_tags", "remove_tags"]

    /// Runs `read`, which takes a body's values apart: whatever it refuses
    /// is the body's fault, a well-formed request carrying a value the
    /// server cannot take, so 422 (`bad_input`), whichever check found it
    /// (a date or a priority the parsers cannot read is `usage` on the
    /// command line, where it came from an argument). What is wrong with a
    /// request's target, its query, is 400.
    static func reading<Value>(_ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch let error as MemoError where error.kind == .usage {
            throw MemoError(.badInput, error.message, hint: error.hint)
        }
    }

    static func object(_ bytes: [UInt8], allowedKeys: Set<String>) throws -> JSONReader {
        guard !bytes.isEmpty else {
            throw MemoError(.badInput, en: "the request needs a JSON object as its body",
                            ko: "요청 본문에 JSON 객체가 필요합니다")
        }
        let reader = try JSONReader(parsing: bytes, source: "request body")
        for member in try reader.members() where !allowedKeys.contains(member.key) {
            throw reader.failure(en: "unknown key '\(member.key)'; known: \(allowedKeys.sorted().joined(separator: ", "))",
                                 ko: "알 수 없는 키 '\(member.key)'; 가능한 키: \(allowedKeys.sorted().joined(separator: ", "))")
        }
        return reader
    }
}

extension JSONReader {
    /// The member `key`: absent (nil), null (`.some(nil)`), or a value.
    func change(_ key: String) throws -> JSONReader?? {
        guard case let .object(pairs) = value else { return try member(key).map { .some($0) } }
        guard let item = pairs.first(where: { $0.0 == key })?.1 else { return nil }
        return item == .null ? .some(nil) : .some(JSONReader(item, path: path.appending(key: key), source: source))
    }

    /// The tag keys of a PATCH: `tags`, the whole new list (null or `[]`:
    /// none), or `add_tags` and `remove_tags`; a list with either of the
    /// others is refused, since it is not clear which should win.
    func tagChanges(clean: ([String]) throws -> [String]) throws -> TagChanges {
        let added = try strings("add_tags")
        let removed = try strings("remove_tags")
        var changes = TagChanges(added: added, removed: removed)
        if let replacement = try change("tags") {
            guard added.isEmpty && removed.isEmpty else {
                throw MemoError(.usage, en: "give either tags (the whole list) or add_tags and remove_tags, not both",
                                ko: "tags(전체 목록)나 add_tags와 remove_tags 중 한쪽만 주세요")
            }
            changes.replacement = try replacement?.elements().map { try $0.string() } ?? []
        }
        return try changes.cleaned(by: clean)
    }

    /// An array of strings under `key` (absent: empty).
    func strings(_ key: String) throws -> [String] {
        try optionalElements(key).map { try $0.string() }
    }
}
