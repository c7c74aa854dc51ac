/// A JSON value that knows where it is, for reading documents of a known
/// shape (imports). Every failure is a bad-input `MemoError` naming the file,
/// the path and what was expected:
/// `tasks.json: $[3].description: expected a string, found a number`.
///
///     let document = try JSONReader(parsing: bytes, source: "tasks.json")
///     for item in try document.elements() {
///         let title = try item.string("description")
///         let due = try item.optionalString("due")
///     }
public struct JSONReader: Sendable {
    /// The value at `path`.
    public let value: JSON
    /// What error messages start with, e.g. the file name; nil for none.
    public let source: String?
    /// The path of the container this value was read from, and the step
    /// from there to it: an import reads a dozen members of each of
    /// millions of items, and a path is only wanted for an error, so it is
    /// put together when asked for rather than copied at every read.
    private let parentPath: JSONPath
    private let lastStep: JSONPath.Step?

    /// A reader of `value`, which sits at `path` in a document from `source`.
    public init(_ value: JSON, path: JSONPath = .root, source: String? = nil) {
        self.value = value
        self.source = source
        parentPath = path
        lastStep = nil
    }

    /// A reader of `value`, found one `step` below the value at `parentPath`.
    private init(_ value: JSON, below parentPath: JSONPath, at step: JSONPath.Step, source: String?) {
        self.value = value
        self.source = source
        self.parentPath = parentPath
        lastStep = step
    }

    /// Where `value` sits in the document.
    public var path: JSONPath { lastStep.map { parentPath.appending($0) } ?? parentPath }

    /// Parses `bytes` (see `JSON.parse`) and reads from the top; a syntax error
    /// is a bad-input error naming `source`, the line and the column.
    public init(parsing bytes: some Collection<UInt8>, source: String? = nil) throws {
        do {
            self.init(try JSON.parse(bytes), source: source)
        } catch let error as JSONSyntaxError {
            throw error.memoError(source: source)
        }
    }

    // MARK: - The value itself

    /// True for JSON's null.
    public var isNull: Bool { value == .null }

    /// The value as a string, or an error.
    public func string() throws -> String {
        guard case let .string(text) = value else { throw mismatch(.string) }
        return text
    }

    /// The value as an integer, or an error (a number with a fraction is not one).
    public func int() throws -> Int64 {
        guard case let .int(number) = value else { throw mismatch(.integer) }
        return number
    }

    /// The value as a number, integer or not, or an error.
    public func double() throws -> Double {
        switch value {
        case let .double(number): return number
        case let .int(number): return Double(number)
        default: throw mismatch(.number)
        }
    }

    /// The value as true or false, or an error.
    public func bool() throws -> Bool {
        guard case let .bool(flag) = value else { throw mismatch(.boolean) }
        return flag
    }

    /// The elements of an array, each knowing its index, or an error.
    public func elements() throws -> [JSONReader] {
        guard case let .array(items) = value else { throw mismatch(.array) }
        let path = path
        return items.enumerated().map { index, item in JSONReader(item, below: path, at: .index(index), source: source) }
    }

    /// The members of an object in the document's order, or an error.
    public func members() throws -> [(key: String, value: JSONReader)] {
        guard case let .object(pairs) = value else { throw mismatch(.object) }
        let path = path
        return pairs.map { key, item in (key, JSONReader(item, below: path, at: .key(key), source: source)) }
    }

    // MARK: - Members of an object

    /// The member `key` of this object; nil when it is absent or null. An error
    /// when this value is not an object.
    public func member(_ key: String) throws -> JSONReader? {
        guard case let .object(pairs) = value else { throw mismatch(.object) }
        // Linear: the objects imports read have a handful of keys.
        guard let item = pairs.first(where: { $0.0 == key })?.1, item != .null else { return nil }
        return JSONReader(item, below: path, at: .key(key), source: source)
    }

    /// The string member `key`; an error when it is absent, null or not a string.
    public func string(_ key: String) throws -> String { try required(key, .string).string() }
    /// The string member `key`, nil when absent or null.
    public func optionalString(_ key: String) throws -> String? { try member(key)?.string() }
    /// The integer member `key`; an error when it is absent, null or not an integer.
    public func int(_ key: String) throws -> Int64 { try required(key, .integer).int() }
    /// The integer member `key`, nil when absent or null.
    public func optionalInt(_ key: String) throws -> Int64? { try member(key)?.int() }
    /// The number member `key`; an error when it is absent, null or not a number.
    public func double(_ key: String) throws -> Double { try required(key, .number).double() }
    /// The number member `key`, nil when absent or null.
    public func optionalDouble(_ key: String) throws -> Double? { try member(key)?.double() }
    /// The boolean member `key`; an error when it is absent, null or not a boolean.
    public func bool(_ key: String) throws -> Bool { try required(key, .boolean).bool() }
    /// The boolean member `key`, nil when absent or null.
    public func optionalBool(_ key: String) throws -> Bool? { try member(key)?.bool() }
    /// The array member `key`'s elements; an error when it is absent, null or not an array.
    public func elements(_ key: String) throws -> [JSONReader] { try required(key, .array).elements() }
    /// The array member `key`'s elements, empty when absent or null.
    public func optionalElements(_ key: String) throws -> [JSONReader] { try member(key)?.elements() ?? [] }

    // MARK: - Errors

    /// A bad-input error about this value, for checks beyond its type:
    /// `tasks.json: $[3].due: <en>`.
    public func failure(en: String, ko: String) -> MemoError {
        let prefix = (source.map { "\($0): " } ?? "") + path.description + ": "
        return MemoError(.badInput, en: prefix + en, ko: prefix + ko)
    }

    /// A bad-input error about the member `key` of this object, present or not.
    public func failure(at key: String, en: String, ko: String) -> MemoError {
        JSONReader(.null, path: path.appending(key: key), source: source).failure(en: en, ko: ko)
    }

    // MARK: - Private

    private func required(_ key: String, _ expected: Kind) throws -> JSONReader {
        if let item = try member(key) { return item }
        throw failure(at: key, en: "missing; expected \(expected.name.en)", ko: "값이 없습니다 (예상: \(expected.name.ko))")
    }

    private func mismatch(_ expected: Kind) -> MemoError {
        let found = Kind.of(value)
        return failure(en: "expected \(expected.name.en), found \(found.name.en)",
                       ko: "형식이 맞지 않습니다 (예상: \(expected.name.ko), 실제: \(found.name.ko))")
    }

    /// JSON's kinds of value as messages name them.
    private enum Kind {
        case string, integer, number, boolean, array, object, null

        static func of(_ value: JSON) -> Kind {
            switch value {
            case .null: return .null
            case .bool: return .boolean
            case .int: return .integer
            case .double: return .number
            case .string: return .string
            case .array: return .array
            case .object: return .object
            }
        }

        /// The Korean messages put these after `예상:`/`실제:`, so no particle
        /// has to agree with the word's last syllable.
        var name: Localized {
            switch self {
            case .string: return Localized(en: "a string", ko: "문자열")
            case .integer: return Localized(en: "an integer", ko: "정수")
            case .number: return Localized(en: "a number", ko: "숫자")
            case .boolean: return Localized(en: "true or false", ko: "참/거짓 값")
            case .array: return Localized(en: "an array", ko: "배열")
            case .object: return Localized(en: "an object", ko: "객체")
            case .null: return Localized(en: "null", ko: "null")
            }
        }
    }
}
